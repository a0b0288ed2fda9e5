/**
 * The kubelet server's own metrics on /metrics (a prom-client registry of its own, per agent):
 * kubelet's HTTP request metrics, labelled as kubelet labels them (method, path = the first path
 * segment, server_type readwrite or readonly, long_running for follow, exec, attach, portForward).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The registry and a recorder of requests. */
export interface KubeletServerMetrics {
  readonly registry: Registry;
  /** Counts req on the server of serverType; call when it arrives. */
  observe(req: IncomingMessage, res: ServerResponse, serverType: 'readwrite' | 'readonly'): void;
}

/** The first path segment, as kubelet's getURLRootPath gives it. */
function rootPath(url: string): string {
  return (url.split('?')[0] ?? '').split('/')[1] ?? '';
}

/** Creates the metrics. */
export function createKubeletServerMetrics(): KubeletServerMetrics {
  const registry = new Registry();
  const labelNames = ['method', 'path', 'server_type', 'long_running'] as const;
  const total = new Counter({ name: 'kubelet_http_requests_total', help: '[ALPHA] Number of the http requests received since the server started', labelNames, registers: [registry] });
  const duration = new Histogram({ name: 'kubelet_http_requests_duration_seconds', help: '[ALPHA] Duration in seconds to serve http requests', labelNames, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry] });
  const inflight = new Gauge({ name: 'kubelet_http_inflight_requests', help: '[ALPHA] Number of the inflight http requests', labelNames, registers: [registry] });
  return {
    registry,
    observe(req, res, serverType) {
      const path = rootPath(req.url ?? '/');
      const longRunning = /[?&]follow=(true|1)/.test(req.url ?? '') || ['exec', 'attach', 'portForward'].includes(path);
      const labels = { method: req.method ?? 'GET', path, server_type: serverType, long_running: String(longRunning) };
      total.inc(labels);
      inflight.inc(labels);
      const start = process.hrtime.bigint();
      res.once('close', () => {
        inflight.dec(labels);
        duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
      });
    },
  };
}

/** Writes the registry in the Prometheus text format. */
export async function serveMetrics(res: ServerResponse, registry: Registry): Promise<void> {
  const body = await registry.metrics();
  res.writeHead(200, { 'content-type': registry.contentType });
  res.end(body);
}
