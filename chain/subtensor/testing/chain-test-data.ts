// Where the chain test data lives: test/fixtures/chain/ (copies of the team's shared/chain/, see
// its README), or TRL_SHARED_CHAIN_DIR. Tests only; the files are data, not code, and are checked
// against their published hashes so a changed copy cannot pass silently.
import path from 'node:path';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { repoRoot } from '../../../common/data-layout.ts';
import { readSetting } from '../../../common/settings/setting.ts';
import { internalSettings } from '../../../common/settings/test-settings.ts';

export const sharedChainDir =
  readSetting(internalSettings, 'TRL_SHARED_CHAIN_DIR') ?? path.join(repoRoot, 'test', 'fixtures', 'chain');

const publishedSha256: Record<string, string> = {
  'finney-metadata-v16-spec424.scale': '66ee6af3ca885bb752f3e21ba1722e07d6aff7f242abd3e7abb8ac4f2774fb77',
  'testfinney-raw-spec-103.json': '72b506168813d2a3173becc09a021385d3c1d51632a978896e217ac2c82556d1',
};

/** Finney runtime metadata (V16), spec 424. */
export const finneyMetadataFile = path.join(sharedChainDir, 'finney-metadata-v16-spec424.scale');

/** Raw chain spec of the 2023 test network genesis, spec 103 (metadata V14). */
export const testfinneySpecFile = path.join(sharedChainDir, 'testfinney-raw-spec-103.json');

export function requireChainTestFile(file: string): string {
  if (!existsSync(file))
    throw new Error(`chain test data ${file} is missing; set TRL_SHARED_CHAIN_DIR to the folder holding shared/chain`);
  const expected = publishedSha256[path.basename(file)];
  const actual = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (expected && actual !== expected)
    throw new Error(`chain test data ${file} has sha256 ${actual}, not the published ${expected}`);
  return file;
}
