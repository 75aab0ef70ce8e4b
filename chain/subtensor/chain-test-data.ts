// Where the chain test data lives: shared/chain/ beside the repository (see its README), or
// TRL_SHARED_CHAIN_DIR. Tests only; the files are data, not code.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { repoRoot } from '../../common/paths.ts';

export const sharedChainDir = process.env.TRL_SHARED_CHAIN_DIR ?? path.resolve(repoRoot, '..', 'shared', 'chain');

/** Finney runtime metadata (V16), spec 424. */
export const finneyMetadataFile = path.join(sharedChainDir, 'finney-metadata-v16-spec424.scale');

/** Raw chain spec of the 2023 test network genesis, spec 103 (metadata V14). */
export const testfinneySpecFile = path.join(sharedChainDir, 'testfinney-raw-spec-103.json');

export function requireChainTestFile(file: string): string {
  if (!existsSync(file)) throw new Error(`chain test data ${file} is missing; set TRL_SHARED_CHAIN_DIR to the folder holding shared/chain`);
  return file;
}
