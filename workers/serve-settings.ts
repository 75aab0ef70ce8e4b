// The settings of `trl serve`'s policy instances and their defaults, apart from the serving code so
// that the command line can print the defaults without loading it.

export interface ServeSettings {
  /** Address the front server binds (loopback by default: sandboxes can reach 0.0.0.0 listeners). */
  host: string;
  port: number;
  maxInstances: number;
  idleSec: number;
  /** The budget cap of each instance's gateway; an instance near it is retired after its request. */
  instanceCapUsd: number;
  requestTimeoutSec: number;
  /** Memory all instances may hold together (each at its sandbox's limit); bounds maxInstances further. */
  memoryMb?: number;
  /** When the seat changes hands, how long open conversations may finish on the old policy. */
  drainSec: number;
}

export const defaultServeSettings: ServeSettings = {
  host: '127.0.0.1',
  port: 8300,
  maxInstances: 4,
  idleSec: 600,
  instanceCapUsd: 50,
  requestTimeoutSec: 300,
  drainSec: 300,
};
