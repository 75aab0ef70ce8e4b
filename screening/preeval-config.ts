// Pre-evaluation settings from config/preeval.json (TRL_PREEVAL_FILE for an operator's own),
// checked with zod; scan thresholds merge over the defaults of preeval/scan-thresholds.ts.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { preEvalConfigFile } from '../common/data-layout.ts';
import { defaultScanThresholds, parseScanThresholds, type ScanThresholds } from './scan-thresholds.ts';
import { defaultNearCopyThreshold } from './similarity.ts';
import { readSetting } from '../common/settings/setting.ts';
import { workerSettings } from '../common/settings/worker-settings.ts';

const configSchema = z
  .object({
    version: z.literal(1),
    staticScan: z
      .object({ enabled: z.boolean().default(true), thresholds: z.record(z.string(), z.unknown()).optional() })
      .default({ enabled: true }),
    similarity: z
      .object({ enabled: z.boolean().default(true), maxDistance: z.number().min(0).max(1).nullable().default(null) })
      .default({ enabled: true, maxDistance: null }),
    judge: z.object({
      enabled: z.boolean().default(true),
      model: z.string().min(1),
      maxAttempts: z.number().int().min(1).max(10).default(3),
      timeoutSec: z.number().positive().max(600).default(120),
    }),
    /** The behavioural probe (activities/probe-activity.ts); off only for measuring the later layers alone. */
    probe: z.object({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  })
  .passthrough();

export interface PreEvalConfig {
  staticScan: { enabled: boolean; thresholds: ScanThresholds };
  similarity: { enabled: boolean; maxDistance: number };
  judge: { enabled: boolean; model: string; maxAttempts: number; timeoutMs: number };
  probe: { enabled: boolean };
}

export const defaultPreEvalFile = preEvalConfigFile;

export function parsePreEvalConfig(text: string, source = 'preeval config'): PreEvalConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `${source}: ${parsed.error.issues.map((i) => `field "${i.path.join('.')}": ${i.message}`).join('; ')}`,
    );
  const c = parsed.data;
  return {
    staticScan: {
      enabled: c.staticScan.enabled,
      thresholds: c.staticScan.thresholds
        ? parseScanThresholds({ ...defaultScanThresholds, ...c.staticScan.thresholds })
        : defaultScanThresholds,
    },
    similarity: { enabled: c.similarity.enabled, maxDistance: c.similarity.maxDistance ?? defaultNearCopyThreshold },
    judge: {
      enabled: c.judge.enabled,
      model: c.judge.model,
      maxAttempts: c.judge.maxAttempts,
      timeoutMs: c.judge.timeoutSec * 1000,
    },
    probe: { enabled: c.probe.enabled },
  };
}

export function loadPreEvalConfig(
  file = readSetting(workerSettings, 'TRL_PREEVAL_FILE') ?? defaultPreEvalFile,
): PreEvalConfig {
  return parsePreEvalConfig(readFileSync(file, 'utf8'), file);
}
