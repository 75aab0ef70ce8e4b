// A port free on 127.0.0.1 right now, for a server started as another process that takes its port
// on the command line (a port picked this way may be taken again before it is used: callers retry).
import net from 'node:net';
import { randomInt } from 'node:crypto';

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * Any free port (the kernel's pick, from the ephemeral range), or with `below`, a free port under
 * that bound: Temporal's SQL schema keeps membership ports in a SMALLINT, so they must be < 32768.
 */
export async function freeLoopbackPort(options: { below?: number } = {}): Promise<number> {
  if (options.below === undefined) {
    const port = await tryListen(0);
    if (port === undefined) throw new Error('no free port on 127.0.0.1');
    return port;
  }
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = await tryListen(randomInt(20_000, options.below));
    if (port !== undefined) return port;
  }
  throw new Error(`no free port on 127.0.0.1 below ${options.below} after 200 tries`);
}
