// What activities need from the worker, constructed only in workers/ and passed in.
import type Docker from 'dockerode';
import type { WorkerIdentity } from '../sandbox/worker-identity.ts';

export interface ActivityDependencies {
  docker: Docker;
  owner: WorkerIdentity;
  /** Tag of the sandbox base image scenario images are built FROM. */
  baseImageTag: string;
  /** Upper bound on the bytes of agent outputs copied out of one run. */
  maxAgentOutputBytes: number;
}
