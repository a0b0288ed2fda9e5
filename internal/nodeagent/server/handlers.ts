/**
 * The kubelet server's endpoints, by path, for the secure port (every endpoint) and the read-only
 * port (kubelet's default handlers only: /healthz, /pods, /stats, /metrics). Authentication and authorization
 * happen before these run (secure port only).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../../api/meta/types.js';
import type { PodSyncHandler, StreamingHandlers, SummaryProvider } from '../interface.js';
import type { CriClient } from '../runtime/cri-client.js';
import { serveContainerLogs } from './container-logs.js';
import { serveNodeLogs } from './node-logs.js';
import { serveMetrics, type KubeletServerMetrics } from './metrics.js';
import { writeJson, writeText } from './respond.js';

/** What the endpoints read. */
export interface EndpointDeps {
  readonly pods: PodSyncHandler;
  readonly summary: SummaryProvider;
  readonly streaming: StreamingHandlers;
  readonly cri?: CriClient;
  /** The node log directory /logs/ serves (/var/log). */
  readonly logDir: string;
  /** The server's own metrics (/metrics). */
  readonly metrics: KubeletServerMetrics;
}

const healthChecks = ['ping', 'log', 'syncloop'];

function serveHealthz(res: ServerResponse, path: string, url: URL): void {
  if (path === '/healthz') {
    if (url.searchParams.has('verbose')) return writeText(res, 200, `${healthChecks.map((c) => `[+]${c} ok`).join('\n')}\nhealthz check passed\n`);
    return writeText(res, 200, 'ok');
  }
  const check = path.slice('/healthz/'.length);
  if (healthChecks.includes(check)) return writeText(res, 200, 'ok');
  return writeText(res, 404, '404 page not found\n');
}

function podList(items: readonly KubeObject[]): Record<string, unknown> {
  return { kind: 'PodList', apiVersion: 'v1', metadata: {}, items };
}

/** kubelet's /runningpods/: the runtime's view, names and containers only. */
function runningPodList(pods: readonly KubeObject[]): Record<string, unknown> {
  return podList(
    pods.map((p) => {
      const meta = (p.metadata ?? {}) as Record<string, unknown>;
      const spec = (p.spec ?? {}) as { containers?: Array<{ name?: string; image?: string }> };
      return {
        metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, creationTimestamp: null },
        spec: { containers: (spec.containers ?? []).map((c) => ({ name: c.name, image: c.image, resources: {} })) },
        status: {},
      } as KubeObject;
    }),
  );
}

function isSubpath(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/** The streaming target of /exec|/attach/{ns}/{pod}[/{uid}]/{container} and /portForward/{ns}/{pod}[/{uid}]. */
function streamingTarget(kind: 'exec' | 'attach' | 'portForward', parts: string[]): { namespace: string; pod: string; uid?: string; container: string } | undefined {
  if (kind === 'portForward') {
    if (parts.length === 2) return { namespace: parts[0] as string, pod: parts[1] as string, container: '' };
    if (parts.length === 3) return { namespace: parts[0] as string, pod: parts[1] as string, uid: parts[2] as string, container: '' };
    return undefined;
  }
  if (parts.length === 3) return { namespace: parts[0] as string, pod: parts[1] as string, container: parts[2] as string };
  if (parts.length === 4) return { namespace: parts[0] as string, pod: parts[1] as string, uid: parts[2] as string, container: parts[3] as string };
  return undefined;
}

/** Serves the read-only endpoints; false when the path is not one of them. */
export async function serveReadOnly(req: IncomingMessage, res: ServerResponse, url: URL, deps: EndpointDeps): Promise<boolean> {
  const path = url.pathname;
  if (isSubpath(path, '/healthz')) {
    serveHealthz(res, path, url);
    return true;
  }
  if (path === '/metrics') {
    await serveMetrics(res, deps.metrics.registry);
    return true;
  }
  if (path === '/pods' || path === '/pods/') {
    writeJson(res, 200, podList(deps.pods.runningPods()));
    return true;
  }
  if (path === '/stats/summary' || path === '/stats/summary/') {
    const summary = await deps.summary.summary();
    if (url.searchParams.get('only_cpu_and_memory') === 'true') {
      const node = summary.node as Record<string, unknown> | undefined;
      const pods = (summary.pods as Array<Record<string, unknown>> | undefined) ?? [];
      const pick = (o: Record<string, unknown> | undefined): Record<string, unknown> => (o ? Object.fromEntries(Object.entries(o).filter(([k]) => ['nodeName', 'podRef', 'name', 'startTime', 'cpu', 'memory', 'systemContainers', 'containers'].includes(k))) : {});
      writeJson(res, 200, { node: pick(node), pods: pods.map((p) => ({ ...pick(p), containers: ((p.containers as Array<Record<string, unknown>> | undefined) ?? []).map(pick) })) });
    } else writeJson(res, 200, summary);
    return true;
  }
  return false;
}

/** Serves every endpoint of the secure port. */
export async function serveAll(req: IncomingMessage, res: ServerResponse, url: URL, deps: EndpointDeps): Promise<void> {
  if (await serveReadOnly(req, res, url, deps)) return;
  const path = url.pathname;
  if (path === '/runningpods' || path === '/runningpods/') return writeJson(res, 200, runningPodList(deps.pods.runningPods()));
  if (path.startsWith('/containerLogs/')) return await serveContainerLogs(req, res, url, { pods: deps.pods, ...(deps.cri ? { cri: deps.cri } : {}) });
  if (path === '/logs' || path.startsWith('/logs/')) return await serveNodeLogs(req, res, path === '/logs' ? '' : path.slice('/logs/'.length), deps.logDir);
  for (const kind of ['exec', 'attach', 'portForward'] as const) {
    if (!path.startsWith(`/${kind}/`)) continue;
    if (req.method !== 'GET' && req.method !== 'POST') return writeText(res, 405, '405: Method Not Allowed');
    const target = streamingTarget(kind, path.slice(kind.length + 2).split('/').filter(Boolean).map(decodeURIComponent));
    if (!target) return writeText(res, 404, '404 page not found\n');
    return await deps.streaming.serve(kind, req, res, target);
  }
  return writeText(res, 404, '404 page not found\n');
}
