/**
 * Test support for exec, attach and port-forward: a containerd of the test's own with one busybox
 * pod run directly through CRI (sandbox labelled as kubelet labels it, containers "main" (httpd on
 * 8080, the exec target) and "echo" (cat on an open stdin, the attach target)), and an HTTPS
 * "kubelet" serving the node agent's streaming handlers for it at /exec, /attach, /portForward.
 */
import { createServer, type Server } from 'node:https';
import { Agent } from 'node:https';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { busyboxImage, startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import type { KubeObject } from '../../api/meta/types.js';
import type { AgentContext, PodSyncHandler } from '../../internal/nodeagent/interface.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { connectCri, type CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { createStreamingHandlers } from '../../internal/nodeagent/streaming/handlers.js';
import { createLogger } from '../../internal/observability/logging.js';
import { createCertificateAuthority, issueCertificate } from './client-certs.js';

/** The running fixture. */
export interface StreamingNode {
  readonly containerd: LocalContainerd;
  readonly cri: CriClient;
  /** The pod as the node knows it (namespace default, name web). */
  readonly pod: KubeObject;
  readonly containers: Record<'main' | 'echo', string>;
  /** host:port of the HTTPS kubelet. */
  readonly host: string;
  /** An HTTPS agent trusting nothing in particular (the kubelet's certificate is the test's own). */
  readonly agent: Agent;
  /** Every streaming request the kubelet received: its kind, Upgrade header and offered WebSocket subprotocols. */
  readonly seen: Array<{ kind: string; upgrade: string; protocols: string }>;
  stop(): Promise<void>;
}

async function runPod(cri: CriClient, dir: string, uid: string): Promise<{ sandbox: string; containers: Record<'main' | 'echo', string> }> {
  const logDir = join(dir, 'pod-logs');
  await mkdir(logDir, { recursive: true });
  const config = {
    metadata: { name: 'web', namespace: 'default', uid, attempt: 0 },
    hostname: 'web',
    log_directory: logDir,
    labels: { 'io.kubernetes.pod.uid': uid, 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'default' },
    linux: {},
  };
  const { pod_sandbox_id: sandbox = '' } = await cri.runtime.RunPodSandbox({ config });
  const make = async (name: string, command: string[], stdin: boolean): Promise<string> => {
    const { container_id: id = '' } = await cri.runtime.CreateContainer({
      pod_sandbox_id: sandbox,
      config: { metadata: { name, attempt: 0 }, image: { image: busyboxImage }, command, stdin, stdin_once: false, tty: false, log_path: `${name}.log`, labels: { 'io.kubernetes.container.name': name } },
      sandbox_config: config,
    });
    await cri.runtime.StartContainer({ container_id: id });
    return id;
  };
  const main = await make('main', ['sh', '-c', 'mkdir -p /www && echo hello-from-pod > /www/index.html && exec httpd -f -p 8080 -h /www'], false);
  const echo = await make('echo', ['cat'], true);
  return { sandbox, containers: { main, echo } };
}

/** Starts containerd, the pod and the kubelet (call in before(); stop() in after()). */
export async function startStreamingNode(dir: string): Promise<StreamingNode> {
  const containerd = await startContainerd(dir);
  const cri = connectCri(containerd.endpoint, 30_000);
  const uid = randomUUID();
  const { containers } = await runPod(cri, dir, uid);
  const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid } };
  const pods: PodSyncHandler = {
    syncPod: () => undefined,
    removePod: () => undefined,
    runningPods: () => [pod],
    findPod: (ns, name) => (ns === 'default' && name === 'web' ? pod : undefined),
    containerId: (podUid, name) => (podUid === uid ? (containers as Record<string, string>)[name] : undefined),
    evictPod: async () => undefined,
  };
  const abort = new AbortController();
  const ctx = { config: defaultNodeAgentConfig(), nodeName: 'node-1', log: createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'), cri, signal: abort.signal } as unknown as AgentContext;
  const streaming = createStreamingHandlers(ctx, pods);
  const ca = await createCertificateAuthority('streaming-test-ca');
  const serving = await issueCertificate(ca, { commonName: 'node-1', usage: 'server', ips: ['127.0.0.1'] });
  const seen: StreamingNode['seen'] = [];
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'https://kubelet').pathname;
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const kind = parts[0] === 'exec' || parts[0] === 'attach' || parts[0] === 'portForward' ? parts[0] : undefined;
    if (!kind) {
      res.writeHead(404).end();
      return;
    }
    seen.push({ kind, upgrade: String(req.headers.upgrade ?? ''), protocols: String(req.headers['sec-websocket-protocol'] ?? '') });
    void streaming.serve(kind, req, res, { namespace: parts[1] ?? '', pod: parts[2] ?? '', container: kind === 'portForward' ? '' : (parts[3] ?? '') });
  };
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, route);
  // Upgrades get a response bound to their socket, as the kubelet server (and the API server) do.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (head.length > 0) socket.unshift(head);
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.end());
    route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  const agent = new Agent({ rejectUnauthorized: false });
  return {
    containerd,
    cri,
    pod,
    containers,
    host,
    agent,
    seen,
    async stop() {
      abort.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      cri.close();
      await containerd.stop();
    },
  };
}
