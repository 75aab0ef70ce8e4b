// The worker's Prometheus endpoint: GET /metrics answers the validator's own metrics
// (common/metrics.ts) followed by the Temporal SDK runtime's, which the SDK's native core exports
// on its own loopback port (workers/quiet-runtime.ts) and which is read here on every scrape, so
// one scrape target has both. The core's port can also be scraped directly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry } from '../common/metrics.ts';
import { log } from '../common/log.ts';
import type { MetricsConfig } from './worker-config.ts';

const temporalScrapeTimeoutMs = 2000;

export interface MetricsServer {
  /** `host:port` actually bound. */
  address: string;
  close(): Promise<void>;
}

async function temporalMetrics(port: number): Promise<string> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
      signal: AbortSignal.timeout(temporalScrapeTimeoutMs),
    });
    if (!response.ok) return `# temporal runtime metrics unavailable: HTTP ${response.status}\n`;
    return await response.text();
  } catch (error) {
    // The scrape still answers with the validator's metrics; the gap is said in a comment line.
    return `# temporal runtime metrics unavailable: ${(error as Error).message.replace(/\s+/g, ' ')}\n`;
  }
}

export async function startMetricsServer(config: MetricsConfig): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '/').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    Promise.all([metricsRegistry.metrics(), temporalMetrics(config.temporalPort)]).then(
      ([own, temporal]) =>
        response.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(`${own}\n${temporal}`),
      (error: unknown) => {
        log.error('metrics_scrape_failed', { error: (error as Error).message });
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  server.on('error', (error) => log.error('metrics_server_error', { error: error.message }));
  const bound = server.address() as AddressInfo;
  return {
    address: `${bound.address}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
