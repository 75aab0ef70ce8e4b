// A port free on 127.0.0.1 right now, for a server started as another process that takes its port
// on the command line (a port picked this way may be taken again before it is used: callers retry).
import net from 'node:net';

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
