/**
 * Test support for the node agent: a real API server (useServer) secured as a cluster is, with
 * client certificates (--client-ca-file), --authorization-mode=Node,RBAC, NodeRestriction on top of
 * the default admission plugins, service account tokens and the --kubelet-client-* flags that let it
 * reach the agent; a containerd of the test's own (hack/local-containerd.ts); and the node agent as a
 * child process (dist/cmd/nodeagent/main.js) with a system:node:<name> client certificate and its
 * root dir, cert dir and manifest directory under the test's temporary dir. Registered with
 * before/after hooks for the file: stopped agent first, then its pods and containerd, then the server.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startContainerd, type LocalContainerd } from '../../hack/local-containerd.js';
import { freePort } from '../../hack/local-etcd.js';
import { startNodeAgent, writeKubeletClientPki, writeNodeAgentFiles, type KubeletClientPki, type NodeAgentFiles, type NodeAgentProcess } from '../../hack/local-node.js';
import { kubeconfig } from '../../hack/run-local.js';
import { connectCri, type CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { clientCert, createCertificateAuthority, tlsCall, type CallResult, type CertificateAuthority, type IssuedCertificate } from './client-certs.js';
import { kubectl, type KubectlResult } from './kubectl.js';
import { useServer, type ServerFixture } from './server.js';
import { serviceAccountFlags, writeSigningKey } from './service-accounts.js';

/** How the fixture is set up. */
export interface NodeAgentFixtureOptions {
  /** The node's name (default node-<file tag>-<pid>). */
  readonly nodeName?: string;
  /** A short tag for this test file: names the containerd dir and the default node name. */
  readonly tag: string;
  /** More KubeletConfiguration fields (v1beta1 names) for the agent's --config file. */
  readonly config?: Record<string, unknown>;
  /** More API server flags. */
  readonly serverFlags?: readonly string[];
}

/** The running fixture (fields set once before() ran). */
export interface NodeAgentFixture {
  readonly server: ServerFixture;
  readonly nodeName: string;
  containerd: LocalContainerd;
  /** The running (or last started) agent. */
  agent: NodeAgentProcess;
  files: NodeAgentFiles;
  clientCA: CertificateAuthority;
  pki: KubeletClientPki;
  /** An admin (system:masters) client certificate and a kubeconfig for it. */
  admin: IssuedCertificate;
  adminKubeconfig: string;
  /** An HTTPS call to the API server as the admin. */
  api(method: string, path: string, body?: unknown): Promise<CallResult>;
  /** The real kubectl as the admin. */
  kubectl(args: readonly string[], opts?: { timeoutMs?: number; input?: string }): Promise<KubectlResult>;
  /** A CRI client for the test's containerd (closed when the fixture stops). */
  cri(): CriClient;
  /** Starts the agent again (after stopAgent), with the same files. */
  startAgent(): Promise<NodeAgentProcess>;
  /** Stops the agent gracefully (SIGTERM). */
  stopAgent(): Promise<void>;
  /** Writes a static pod manifest into the agent's --pod-manifest-path; returns its path. */
  writeManifest(fileName: string, manifest: unknown): Promise<string>;
}

/**
 * Polls fn until it returns a value other than undefined; throws after timeoutMs with what(),
 * which should say what was awaited and what was last seen.
 */
export async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs: number, what: () => string, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what()}`);
    await sleep(intervalMs);
  }
}

/** A node name of the test file's own (not the machine's hostname: files run side by side). */
function defaultNodeName(tag: string): string {
  return `node-${tag}-${process.pid}`.toLowerCase();
}

/** The agent's last lines, for failure messages. */
export function agentTail(agent: NodeAgentProcess | undefined, lines = 30): string {
  return agent ? agent.output().trim().split('\n').slice(-lines).join('\n') : '(no agent)';
}

/**
 * Sets up the API server, containerd and the node agent for the file's tests and waits until the
 * agent registered its Node. Fails (never skips) when the machine cannot run them: not root, or
 * containerd, runc or the CNI plugins missing (`make containerd` installs them).
 */
export function useNodeAgent(opts: NodeAgentFixtureOptions): NodeAgentFixture {
  const nodeName = opts.nodeName ?? defaultNodeName(opts.tag);
  const fx = { nodeName } as NodeAgentFixture & { server: ServerFixture };
  let cri: CriClient | undefined;
  // Registered before useServer's hook, so it runs first: the agent stops while the API server still
  // answers (its graceful stop writes pod status), then its pods and containerd go.
  after(async () => {
    await fx.agent?.stop();
    cri?.close();
    await fx.containerd?.stop();
  });
  const server = useServer({}, async () => {
    const dir = server.dir;
    fx.clientCA = await createCertificateAuthority('node-e2e-client-ca');
    fx.admin = await clientCert(fx.clientCA, 'node-e2e-admin', ['system:masters']);
    fx.pki = await writeKubeletClientPki(join(dir, 'apiserver-pki'), fx.clientCA);
    await writeFile(join(dir, 'client-ca.crt'), fx.clientCA.certPem);
    return [
      `--client-ca-file=${join(dir, 'client-ca.crt')}`,
      '--authorization-mode=Node,RBAC',
      '--enable-admission-plugins=NodeRestriction',
      ...serviceAccountFlags(await writeSigningKey('ec')),
      ...fx.pki.apiServerFlags,
      // kubeadm's order: a node named by --hostname-override has a Hostname address no resolver knows.
      '--kubelet-preferred-address-types=InternalIP,Hostname',
      ...(opts.serverFlags ?? []),
    ];
  });
  fx.server = server;
  before(async () => {
    if (process.getuid?.() !== 0) throw new Error('node agent tests need root: containerd, runc and the CNI bridge all do (run `make test` as root)');
    await server.started;
    const dir = server.dir;
    fx.adminKubeconfig = join(dir, 'admin.kubeconfig');
    await writeFile(fx.adminKubeconfig, kubeconfig(`https://127.0.0.1:${server.port}`, server.ca, 'capstan', { clientCert: fx.admin.cert, clientKey: fx.admin.key }));
    fx.api = (method, path, body) => tlsCall(server.port, server.ca, method, path, { cert: fx.admin, ...(body !== undefined ? { body } : {}) });
    fx.kubectl = (args, o = {}) => kubectl(fx.adminKubeconfig, args, o);
    // A short path: containerd's socket lives in it (unix socket paths stop at 107 bytes).
    const containerdDir = `/tmp/capstan-${opts.tag}-${process.pid}`;
    try {
      fx.containerd = await startContainerd(containerdDir);
    } catch (err) {
      await rm(containerdDir, { recursive: true, force: true }).catch(() => undefined);
      throw new Error(`the node agent tests need containerd, runc and the CNI plugins (make containerd installs them; host ${hostname()}): ${(err as Error).message}`);
    }
    fx.cri = () => (cri ??= connectCri(fx.containerd.endpoint, 10_000));
    fx.files = await writeNodeAgentFiles({
      dir: join(dir, 'node'),
      nodeName,
      server: `https://127.0.0.1:${server.port}`,
      serverCA: server.ca,
      clientCA: fx.clientCA,
      pki: fx.pki,
      runtimeEndpoint: fx.containerd.endpoint,
      port: await freePort(),
      healthzPort: await freePort(),
      ...(opts.config ? { config: opts.config } : {}),
    });
    fx.writeManifest = async (fileName, manifest) => {
      const path = join(fx.files.manifestDir, fileName);
      // Written aside and renamed in, so the agent never reads half a file.
      await writeFile(`${path}.tmp`, JSON.stringify(manifest));
      await rename(`${path}.tmp`, path);
      return path;
    };
    fx.startAgent = async () => {
      fx.agent = startNodeAgent(fx.files.args);
      const agent = fx.agent;
      await eventually(
        async () => {
          if (agent.child.exitCode !== null || agent.child.signalCode !== null) throw new Error(`the node agent exited (${agent.child.exitCode ?? agent.child.signalCode}):\n${agentTail(agent)}`);
          const r = await fx.api('GET', `/api/v1/nodes/${nodeName}`);
          return r.status === 200 ? true : undefined;
        },
        30_000,
        () => `Node ${nodeName} to be registered; the agent said:\n${agentTail(agent)}`,
      );
      return agent;
    };
    fx.stopAgent = async () => {
      await fx.agent?.stop();
    };
    await fx.startAgent();
  });
  return fx;
}

/** Waits until the namespace's default ServiceAccount exists (pods are refused before it does). */
export async function defaultServiceAccount(fx: NodeAgentFixture, namespace = 'default'): Promise<void> {
  await eventually(
    async () => ((await fx.api('GET', `/api/v1/namespaces/${namespace}/serviceaccounts/default`)).status === 200 ? true : undefined),
    20_000,
    () => `ServiceAccount ${namespace}/default`,
  );
}

/** A pod object as the API server returns it. */
export type PodObject = {
  metadata: { name: string; namespace: string; uid: string; annotations?: Record<string, string>; deletionTimestamp?: string };
  spec: Record<string, unknown> & { nodeName?: string };
  status?: {
    phase?: string;
    podIP?: string;
    podIPs?: { ip: string }[];
    hostIP?: string;
    conditions?: { type: string; status: string; reason?: string }[];
    containerStatuses?: { name: string; ready: boolean; restartCount: number; containerID?: string; state?: Record<string, any>; lastState?: Record<string, any> }[];
  };
};

/** GETs a pod (undefined when it is not there). */
export async function getPod(fx: NodeAgentFixture, namespace: string, name: string): Promise<PodObject | undefined> {
  const r = await fx.api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`GET pod ${namespace}/${name}: ${r.status} ${r.text}`);
  return r.json<PodObject>();
}

/** Waits until the pod satisfies test; the failure names the pod's last status and the agent's output. */
export async function waitForPod(fx: NodeAgentFixture, namespace: string, name: string, test: (p: PodObject) => boolean, what: string, timeoutMs = 30_000): Promise<PodObject> {
  let last: PodObject | undefined;
  return await eventually(
    async () => {
      last = await getPod(fx, namespace, name);
      return last && test(last) ? last : undefined;
    },
    timeoutMs,
    () => `pod ${namespace}/${name} ${what}; last status: ${JSON.stringify(last?.status ?? 'absent')}\nagent:\n${agentTail(fx.agent)}`,
  );
}

/** A busybox pod bound to nodeName (no scheduler in Capstan: spec.nodeName binds it). */
export function busyboxPod(name: string, nodeName: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      nodeName,
      terminationGracePeriodSeconds: 2,
      containers: [{ name: 'main', image: 'capstan.local/busybox:1', imagePullPolicy: 'Never', ...container }],
      ...spec,
    },
  };
}
