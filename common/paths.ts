// Where the project keeps things on disk. One module so no other file guesses a path.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Downloaded tools (Temporal CLI, wheels). Safe to delete; re-created by bootstrap. */
export const cacheDir = process.env.TRL_CACHE_DIR ?? path.join(repoRoot, '.cache');

/** State that must survive restarts: Temporal's SQLite file, artifacts, pid files, logs. */
export const dataDir = process.env.TRL_DATA_DIR ?? path.join(repoRoot, '.data');

export const scenariosDir = path.join(repoRoot, 'scenarios');
export const baseImageDir = path.join(repoRoot, 'infra', 'base-image');
export const artifactsRoot = path.join(dataDir, 'artifacts');
export const packStoreDir = path.join(dataDir, 'packs');
/** The money ledger across scenario attempts: one JSON-lines file per UTC day (spend/spend-ledger.ts). */
export const spendDir = path.join(dataDir, 'spend');
export const temporalDbFile = path.join(dataDir, 'temporal', 'temporal.db');
export const temporalLogFile = path.join(dataDir, 'temporal', 'server.log');
export const temporalPidFile = path.join(dataDir, 'temporal', 'server.pid');
export const workerPidFile = path.join(dataDir, 'worker.pid');
export const dockerdLogFile = path.join(dataDir, 'dockerd.log');
