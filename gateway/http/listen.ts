// Starting an OpenAI-style server on one address (never all of them) and closing it for good.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** Base URL for an OpenAI client, ending in /v1. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listenOn(server: http.Server, host: string, port = 0): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${bound}/v1`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
