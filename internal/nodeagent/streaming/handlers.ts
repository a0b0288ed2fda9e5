/**
 * The kubelet server's /exec, /attach and /portForward (kubelet's getExec, getAttach and
 * getPortForward): the pod and container are resolved among the pods the workers run, the
 * runtime is asked (CRI Exec/Attach/PortForward) for a URL of its own streaming server, and the
 * client's upgrade is served against it: SPDY and pre-v5 WebSocket byte for byte, WebSocket
 * v5.channel.k8s.io through the translator (websocket-v5.ts), port-forward tunnelled through
 * WebSocket through tunnelPortForward. Refusals carry kubelet's status codes and messages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext, PodSyncHandler, StreamingHandlers } from '../interface.js';
import type { CriClient } from '../runtime/cri-client.js';
import { BadStreamRequest, portForwardPorts, streamOptions, type StreamOptions } from './options.js';
import { tunnelPortForward } from './port-forward-tunnel.js';
import { channelV5, isUpgradeRequest, isWebSocketRequest, portForwardTunnel, webSocketProtocols } from './protocols.js';
import { proxyUpgradeRaw } from './raw-proxy.js';
import { translateWebSocketV5 } from './websocket-v5.js';

/** A refusal written as kubelet writes it: plain text with a status code. */
class StreamingRefusal extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

const grpcNames: Record<number, string> = { 1: 'Canceled', 2: 'Unknown', 3: 'InvalidArgument', 4: 'DeadlineExceeded', 5: 'NotFound', 6: 'AlreadyExists', 7: 'PermissionDenied', 8: 'ResourceExhausted', 9: 'FailedPrecondition', 10: 'Aborted', 11: 'OutOfRange', 12: 'Unimplemented', 13: 'Internal', 14: 'Unavailable', 15: 'DataLoss', 16: 'Unauthenticated' };

/** A CRI failure as kubelet's streaming.WriteError answers it (404 NotFound, 429 ResourceExhausted, else 500). */
function runtimeRefusal(err: unknown): StreamingRefusal {
  const e = err as { code?: number; details?: string; message?: string };
  if (typeof e.code === 'number' && grpcNames[e.code]) {
    const status = e.code === 5 ? 404 : e.code === 8 ? 429 : 500;
    return new StreamingRefusal(status, `rpc error: code = ${grpcNames[e.code]} desc = ${e.details ?? e.message ?? ''}`);
  }
  return new StreamingRefusal(500, e.message ?? String(err));
}

function meta(pod: KubeObject): { name: string; namespace: string; uid: string } {
  const m = (pod.metadata ?? {}) as { name?: string; namespace?: string; uid?: string };
  return { name: m.name ?? '', namespace: m.namespace ?? '', uid: m.uid ?? '' };
}

/** The running sandbox of a pod uid (kubelet labels it io.kubernetes.pod.uid). */
async function sandboxOf(cri: CriClient, uid: string): Promise<string | undefined> {
  const { items = [] } = await cri.runtime.ListPodSandbox({ filter: { label_selector: { 'io.kubernetes.pod.uid': uid } } });
  const ready = items.find((s) => s.state === 'SANDBOX_READY') ?? items[0];
  return ready?.id ?? undefined;
}

/** Builds the streaming handlers over the workers' pods and the agent's CRI runtime. */
export function createStreamingHandlers(ctx: AgentContext, pods: PodSyncHandler): StreamingHandlers {
  async function runtimeUrl(kind: 'exec' | 'attach' | 'portForward', pod: KubeObject, container: string, query: URLSearchParams, opts: StreamOptions | undefined, ports: number[]): Promise<string> {
    const cri = ctx.cri;
    const { name, namespace, uid } = meta(pod);
    if (!cri) throw new StreamingRefusal(500, `${kind} is not available: node ${ctx.nodeName} runs no container runtime`);
    try {
      if (kind === 'portForward') {
        const sandbox = await sandboxOf(cri, uid);
        if (!sandbox) throw new StreamingRefusal(404, `pod not found ("${name}_${namespace}")`);
        return (await cri.runtime.PortForward({ pod_sandbox_id: sandbox, port: ports })).url ?? '';
      }
      const id = pods.containerId(uid, container);
      if (!id) throw new StreamingRefusal(404, `container not found ("${container}")`);
      const o = opts as StreamOptions;
      if (kind === 'exec') return (await cri.runtime.Exec({ container_id: id, cmd: query.getAll('command'), tty: o.tty, stdin: o.stdin, stdout: o.stdout, stderr: o.stderr })).url ?? '';
      return (await cri.runtime.Attach({ container_id: id, tty: o.tty, stdin: o.stdin, stdout: o.stdout, stderr: o.stderr })).url ?? '';
    } catch (err) {
      throw err instanceof StreamingRefusal ? err : runtimeRefusal(err);
    }
  }

  async function serve(kind: 'exec' | 'attach' | 'portForward', req: IncomingMessage, res: ServerResponse, target: { namespace: string; pod: string; uid?: string; container: string }): Promise<void> {
    const query = new URL(req.url ?? '/', 'http://kubelet').searchParams;
    const protocols = isWebSocketRequest(req) ? webSocketProtocols(req) : [];
    const tunnel = kind === 'portForward' && protocols.includes(portForwardTunnel);
    const opts = kind === 'portForward' ? undefined : streamOptions(query);
    const ports = kind === 'portForward' && isWebSocketRequest(req) && !tunnel ? portForwardPorts(query) : [];
    const pod = pods.findPod(target.namespace, target.pod);
    if (!pod) throw new StreamingRefusal(404, 'pod does not exist');
    if (target.uid && meta(pod).uid !== target.uid) throw new StreamingRefusal(404, 'pod not found');
    const url = await runtimeUrl(kind, pod, target.container, query, opts, ports);
    if (!isUpgradeRequest(req)) throw new StreamingRefusal(400, 'Upgrade request required');
    ctx.log.v(4, `${kind} ${target.namespace}/${target.pod}/${target.container} via ${protocols.length > 0 ? `WebSocket (${protocols.join(', ')})` : `${req.headers.upgrade} (${String(req.headers['x-stream-protocol-version'] ?? '')})`}`);
    if (tunnel) return await tunnelPortForward(req, res, url);
    if (opts && protocols.includes(channelV5)) return await translateWebSocketV5(req, res, url, opts);
    await proxyUpgradeRaw(req, res, url);
  }

  return {
    async serve(kind, req, res, target) {
      try {
        await serve(kind, req, res, target);
      } catch (err) {
        const refusal = err instanceof StreamingRefusal ? err : err instanceof BadStreamRequest ? new StreamingRefusal(400, err.message) : new StreamingRefusal(500, (err as Error).message);
        if (refusal.code >= 500) ctx.log.error(`${kind} ${target.namespace}/${target.pod}: ${refusal.message}`);
        if (res.headersSent || !res.socket) {
          req.socket.destroy();
          return;
        }
        res.writeHead(refusal.code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
        res.end(`${refusal.message}\n`);
      }
    },
  };
}
