/**
 * One node agent run against a Capstan API server, as a kubeadm-made node is set up: the API server
 * reaches the agent's server with a client certificate of its own (CN kube-apiserver-kubelet-client,
 * O system:masters, signed by the client CA the agent trusts) and checks the agent's serving
 * certificate against a kubelet-serving CA; the agent talks to the API server as system:node:<name>
 * (O system:nodes), so the Node authorizer and NodeRestriction apply to it. Used by `make run-node`
 * (hack/run-node.ts), the node agent tests (test/support/node-agent.ts) and the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../internal/server/pki.js';
import { kubeconfig } from './run-local.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The node agent's entry point in dist/. */
export const nodeAgentMain = join(root, 'dist', 'cmd', 'nodeagent', 'main.js');

/** What the API server needs to reach node agents, made once per cluster. */
export interface KubeletClientPki {
  /** Signs the agents' serving certificates; the API server's --kubelet-certificate-authority. */
  readonly servingCA: CertificateAuthority;
  /** --kubelet-client-certificate, --kubelet-client-key, --kubelet-certificate-authority and --kubelet-preferred-address-types. */
  readonly apiServerFlags: readonly string[];
}

/**
 * Writes into dir a kubelet-serving CA and the API server's kubelet client certificate signed by
 * clientCA (the CA both the API server and the agents trust for client certificates).
 */
export async function writeKubeletClientPki(dir: string, clientCA: CertificateAuthority): Promise<KubeletClientPki> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const servingCA = await createCertificateAuthority('capstan-kubelet-serving-ca', 10 * 365);
  const client = await issueCertificate(clientCA, { commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], usage: 'client' });
  const paths = { ca: join(dir, 'kubelet-serving-ca.crt'), cert: join(dir, 'apiserver-kubelet-client.crt'), key: join(dir, 'apiserver-kubelet-client.key') };
  await writeFile(paths.ca, servingCA.certPem);
  await writeFile(paths.cert, client.cert);
  await writeFile(paths.key, client.key, { mode: 0o600 });
  return {
    servingCA,
    apiServerFlags: [
      `--kubelet-client-certificate=${paths.cert}`,
      `--kubelet-client-key=${paths.key}`,
      `--kubelet-certificate-authority=${paths.ca}`,
      // As kubeadm sets it: a node's name need not resolve, its InternalIP does.
      '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
    ],
  };
}

/** How one node agent is set up. */
export interface NodeAgentSetup {
  /** Everything of this agent goes under dir (config, kubeconfig, pki, root dir, manifests). */
  readonly dir: string;
  readonly nodeName: string;
  /** The API server's URL and serving CA (PEM). */
  readonly server: string;
  readonly serverCA: string;
  /** The client CA: signs the node's client certificate and is the agent's x509 clientCAFile. */
  readonly clientCA: CertificateAuthority;
  readonly pki: KubeletClientPki;
  /** The CRI endpoint (unix://...). */
  readonly runtimeEndpoint: string;
  /** The agent's --port, healthz port and read-only port (0: off). */
  readonly port: number;
  readonly healthzPort: number;
  readonly readOnlyPort?: number;
  /** --node-ip, and the address the serving certificate is for (default 127.0.0.1). */
  readonly nodeIP?: string;
  /** More KubeletConfiguration fields (v1beta1 names), merged over the setup's. */
  readonly config?: Record<string, unknown>;
}

/** The files written for an agent and the command line that uses them. */
export interface NodeAgentFiles {
  readonly configFile: string;
  readonly kubeconfig: string;
  readonly rootDir: string;
  readonly certDir: string;
  /** --pod-manifest-path (staticPodPath): static pods go here. */
  readonly manifestDir: string;
  /** Its --port and healthz port. */
  readonly port: number;
  readonly healthzPort: number;
  /** The node agent's arguments (after main.js). */
  readonly args: readonly string[];
}

/** Writes the agent's certificates, kubeconfig and KubeletConfiguration under setup.dir. */
export async function writeNodeAgentFiles(setup: NodeAgentSetup): Promise<NodeAgentFiles> {
  const nodeIP = setup.nodeIP ?? '127.0.0.1';
  const pkiDir = join(setup.dir, 'pki');
  const rootDir = join(setup.dir, 'root');
  const certDir = join(setup.dir, 'certs');
  const manifestDir = join(setup.dir, 'manifests');
  for (const d of [pkiDir, rootDir, certDir, manifestDir]) await mkdir(d, { recursive: true, mode: 0o700 });
  const identity = await issueCertificate(setup.clientCA, { commonName: `system:node:${setup.nodeName}`, organizations: ['system:nodes'], usage: 'client' });
  const serving = await issueCertificate(setup.pki.servingCA, { commonName: setup.nodeName, usage: 'server', dns: [setup.nodeName, 'localhost'], ips: [...new Set([nodeIP, '127.0.0.1'])] });
  const files = {
    clientCA: join(pkiDir, 'client-ca.crt'),
    servingCert: join(pkiDir, 'kubelet.crt'),
    servingKey: join(pkiDir, 'kubelet.key'),
    kubeconfig: join(setup.dir, 'kubeconfig'),
    config: join(setup.dir, 'config.yaml'),
  };
  await writeFile(files.clientCA, setup.clientCA.certPem);
  await writeFile(files.servingCert, serving.cert);
  await writeFile(files.servingKey, serving.key, { mode: 0o600 });
  await writeFile(files.kubeconfig, kubeconfig(setup.server, setup.serverCA, 'capstan', { clientCert: identity.cert, clientKey: identity.key }).replace(/capstan-admin/g, `system:node:${setup.nodeName}`), { mode: 0o600 });
  const config: Record<string, unknown> = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: nodeIP,
    port: setup.port,
    readOnlyPort: setup.readOnlyPort ?? 0,
    healthzPort: setup.healthzPort,
    healthzBindAddress: '127.0.0.1',
    tlsCertFile: files.servingCert,
    tlsPrivateKeyFile: files.servingKey,
    authentication: { x509: { clientCAFile: files.clientCA }, webhook: { enabled: true }, anonymous: { enabled: false } },
    authorization: { mode: 'Webhook' },
    containerRuntimeEndpoint: setup.runtimeEndpoint,
    staticPodPath: manifestDir,
    // A static pod written to the directory shows up within a second rather than kubelet's 20 s.
    fileCheckFrequency: '1s',
    ...setup.config,
  };
  await writeFile(files.config, stringify(config));
  return {
    configFile: files.config,
    kubeconfig: files.kubeconfig,
    rootDir,
    certDir,
    manifestDir,
    port: setup.port,
    healthzPort: setup.healthzPort,
    args: ['--config', files.config, '--kubeconfig', files.kubeconfig, '--hostname-override', setup.nodeName, '--node-ip', nodeIP, '--root-dir', rootDir, '--cert-dir', certDir],
  };
}

/**
 * The V8 flags the node agent runs with here (`make run-node`, the tests, the bench), as a Go
 * kubelet is run with GOGC/GOMEMLIMIT: young-generation semi-spaces of 1 MB instead of V8's 16 MB
 * (the agent allocates little that lives, and a 32 MB nursery was a third of its resident memory),
 * and V8's lite mode (no optimizing compilers, feedback allocated lazily): compiled code was the
 * next largest part, and an agent's work is waiting on containerd and the API server, not running
 * JavaScript (bench/README.md's node-agent row shows the CPU both ways). Simulated nodes, which do
 * run JavaScript for a thousand nodes, are not started with these flags.
 */
export const nodeAgentExecArgv: readonly string[] = ['--max-semi-space-size=1', '--lite-mode'];

/** A node agent child process. */
export interface NodeAgentProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** What it wrote to stdout and stderr (the last 256 KiB), when its output is piped. */
  output(): string;
  /** Resolves with its exit code (or signal name) once it exited. */
  readonly exited: Promise<number | string>;
  /** SIGTERM (its graceful stop), SIGKILL after timeoutMs; resolves once it exited. Idempotent. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts dist/cmd/nodeagent/main.js with args under nodeAgentExecArgv (or opts.execArgv); output
 * 'pipe' keeps its output, 'inherit' shows it.
 */
export function startNodeAgent(args: readonly string[], opts: { output?: 'pipe' | 'inherit'; execArgv?: readonly string[]; detached?: boolean } = {}): NodeAgentProcess {
  const output = opts.output ?? 'pipe';
  const child = spawn(process.execPath, [...(opts.execArgv ?? nodeAgentExecArgv), nodeAgentMain, ...args], {
    stdio: ['ignore', output, output],
    detached: opts.detached ?? false,
  });
  let text = '';
  const keep = (d: Buffer): void => {
    text = (text + d.toString()).slice(-256 * 1024);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  return {
    pid: child.pid ?? -1,
    child,
    output: () => text,
    exited,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
