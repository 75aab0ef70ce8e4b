// The command line's connection to Temporal: the configured endpoint, or a clear message naming `trl up`.
import { Client, Connection } from '@temporalio/client';
import { temporalEndpoint } from '../infra/temporal-server.ts';
import { UsageError } from './usage-error.ts';
import { temporalConnectionOptions } from '../infra/temporal-connection-options.ts';

export async function connectTemporal(): Promise<{
  client: Client;
  connection: Connection;
  uiUrl: string;
  namespace: string;
}> {
  const endpoint = temporalEndpoint();
  const options = temporalConnectionOptions(endpoint.address);
  try {
    const connection = await Connection.connect({ ...options, connectTimeout: 2000 });
    return {
      connection,
      client: new Client({ connection, namespace: endpoint.namespace }),
      uiUrl: endpoint.uiUrl,
      namespace: endpoint.namespace,
    };
  } catch {
    throw new UsageError(`Temporal does not answer at ${endpoint.address}; start the stack with \`trl up\``);
  }
}
