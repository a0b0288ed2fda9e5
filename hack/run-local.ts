/**
 * `make run`: starts a local etcd (data kept in .local/etcd) and the API server on
 * https://127.0.0.1:6443 (or --port), writes .local/kubeconfig with the serving CA embedded, and
 * runs until interrupted, then stops both cleanly. Unless service account flags are given, the server
 * issues service account tokens signed with .local/sa.key (generated once).
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startLocalEtcd } from './local-etcd.js';
import { ensureLocalPki, localPkiPaths } from './local-pki.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The credentials a kubeconfig's user presents. */
export interface KubeconfigUser {
  /** A client certificate and its key (PEM). */
  readonly clientCert?: string;
  readonly clientKey?: string;
  /** A bearer token. */
  readonly token?: string;
}

/**
 * A kubeconfig for server with the CA embedded. Without credentials the user carries a bare
 * username: kubectl prompts for credentials when a user has none at all; it sends the name as
 * Basic auth, which the server (like kube-apiserver) does not use, so requests are anonymous.
 */
export function kubeconfig(server: string, caPem: string, name = 'capstan', user: KubeconfigUser = {}): string {
  const ca = Buffer.from(caPem).toString('base64');
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const userName = user.clientCert ? `${name}-admin` : user.token ? `${name}-token` : `${name}-anonymous`;
  const userLines = user.clientCert
    ? [`    client-certificate-data: ${b64(user.clientCert)}`, `    client-key-data: ${b64(user.clientKey ?? '')}`]
    : user.token
      ? [`    token: ${user.token}`]
      : ['    username: anonymous'];
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca}`,
    'users:',
    `- name: ${userName}`,
    '  user:',
    ...userLines,
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${userName}`,
    `current-context: ${name}`,
    'preferences: {}',
    '',
  ].join('\n');
}

/** Polls /readyz over TLS with the given CA until it answers 200. */
export async function waitReady(port: number, ca: () => Promise<string>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const caPem = await ca();
      const code = await new Promise<number>((res, rej) => {
        const r = request({ host: '127.0.0.1', port, path: '/readyz', ca: caPem, servername: 'localhost', timeout: 2000 }, (resp) => {
          resp.resume();
          res(resp.statusCode ?? 0);
        });
        r.on('error', rej);
        r.on('timeout', () => r.destroy(new Error('timeout')));
        r.end();
      });
      if (code === 200) return;
      last = `readyz answered ${code}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`API server not ready after ${timeoutMs}ms: ${last}`);
}

/**
 * `make run`'s audit policy (kept in .local/audit-policy.yaml, so it can be edited): nothing for the
 * frequent health, metrics and discovery reads and for events, metadata only for reads and for
 * secrets, configmaps and tokens (never their contents), request and response bodies of every
 * other write.
 */
const localAuditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ['/healthz*', '/livez*', '/readyz*', '/metrics', '/version', '/api', '/api/*', '/apis', '/apis/*', '/openapi/*']
- level: None
  resources: [{ group: '', resources: [events] }, { group: events.k8s.io, resources: [events] }]
- level: Metadata
  resources:
  - { group: '', resources: [secrets, configmaps, serviceaccounts/token] }
  - { group: authentication.k8s.io, resources: [tokenreviews] }
- level: Metadata
  verbs: [get, list, watch]
- level: RequestResponse
  omitManagedFields: true
`;

/** Writes make run's audit policy unless the file exists; returns its path. */
async function ensureAuditPolicy(local: string): Promise<string> {
  const path = join(local, 'audit-policy.yaml');
  try {
    await writeFile(path, localAuditPolicy, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return path;
}

/** A running local control plane: etcd and the API server child. */
export interface LocalControlPlane {
  readonly port: number;
  /** The API server's serving CA (PEM) and the admin's kubeconfig (.local/kubeconfig). */
  readonly ca: string;
  readonly kubeconfigPath: string;
  /** .local and its client CA files (.local/pki). */
  readonly local: string;
  readonly pki: ReturnType<typeof localPkiPaths>;
  /** Stops the API server (a graceful drain) and then etcd. */
  stop(): Promise<void>;
  /** Called once if the API server exits by itself, with its exit code. */
  onExit(handler: (code: number) => void): void;
}

/**
 * Starts `make run`'s etcd (data kept in .local/etcd) and API server with args (--port N and API
 * server flags, which replace the secure defaults they name) plus extraServerArgs, waits until it
 * is ready and writes the admin's kubeconfig.
 */
export async function startLocalControlPlane(args: readonly string[], extraServerArgs: readonly string[] = []): Promise<LocalControlPlane> {
  const portArg = args.indexOf('--port');
  const port = portArg >= 0 ? Number(args[portArg + 1]) : 6443;
  const local = join(root, '.local');
  await mkdir(local, { recursive: true });
  // etcd and the server run in process groups of their own: Ctrl-C reaches this script alone, which
  // stops the server (a graceful drain that still writes to etcd) and then etcd.
  const etcd = await startLocalEtcd({ dataDir: join(local, 'etcd'), clientPort: await freePort(), logFile: join(local, 'etcd.log'), detached: true });
  process.stdout.write(`etcd: ${etcd.endpoint} (data in .local/etcd)\n`);
  const certDir = join(local, 'certs');
  // Secure by default: client certificates from our own CA, Node and RBAC authorization, and
  // service account tokens signed with our own key. Anonymous requests reach only what kube's
  // bootstrap policy grants them (health and version). A flag given to `make run` replaces ours.
  const pki = localPkiPaths(join(local, 'pki'));
  const admin = await ensureLocalPki(pki);
  const serverArgs = [...args.filter((_, i) => portArg < 0 || (i !== portArg && i !== portArg + 1)), ...extraServerArgs];
  const given = (prefix: string): boolean => serverArgs.some((a) => a.startsWith(prefix));
  const secure = [
    ...(given('--client-ca-file') ? [] : [`--client-ca-file=${pki.caCertFile}`]),
    ...(given('--authorization-mode') ? [] : ['--authorization-mode=Node,RBAC']),
    ...(given('--service-account-') || given('--api-audiences')
      ? []
      : [
          '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
          `--service-account-key-file=${pki.serviceAccountPublicKeyFile}`,
          `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
        ]),
    // Audited by default: who did what, in .local/audit.log (rotated at 100 MB, 3 gzipped backups).
    ...(given('--audit-') ? [] : [`--audit-policy-file=${await ensureAuditPolicy(local)}`, `--audit-log-path=${join(local, 'audit.log')}`, '--audit-log-maxsize=100', '--audit-log-maxbackup=3', '--audit-log-compress']),
  ];
  const server = spawn(
    process.execPath,
    [join(root, 'dist', 'cmd', 'apiserver', 'main.js'), '--etcd-servers', etcd.endpoint, '--cert-dir', certDir, '--secure-port', String(port), ...secure, ...serverArgs],
    { stdio: ['ignore', 'inherit', 'inherit'], detached: true },
  );
  let stopping = false;
  let exitHandler: (code: number) => void = (code) => process.stderr.write(`API server exited with code ${code}\n`);
  const stop = async (): Promise<void> => {
    stopping = true;
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await etcd.stop();
  };
  server.once('exit', (code) => {
    if (!stopping) exitHandler(code ?? 1);
  });
  // Ctrl-C while it starts still stops both (they are in process groups of their own).
  const early = (): void => void stop().then(() => process.exit(130));
  process.once('SIGINT', early);
  process.once('SIGTERM', early);
  try {
    await waitReady(port, () => readFile(join(certDir, 'ca.crt'), 'utf8'), 60_000);
  } catch (err) {
    await stop();
    throw err;
  } finally {
    process.off('SIGINT', early);
    process.off('SIGTERM', early);
  }
  const ca = await readFile(join(certDir, 'ca.crt'), 'utf8');
  const kc = join(local, 'kubeconfig');
  await writeFile(kc, kubeconfig(`https://127.0.0.1:${port}`, ca, 'capstan', { clientCert: admin.cert, clientKey: admin.key }), { mode: 0o600 });
  return {
    port,
    ca,
    kubeconfigPath: kc,
    local,
    pki,
    stop,
    onExit: (handler) => {
      exitHandler = handler;
    },
  };
}

async function main(): Promise<void> {
  const cp = await startLocalControlPlane(process.argv.slice(2));
  const stopAll = async (code: number): Promise<never> => {
    await cp.stop();
    process.exit(code);
  };
  cp.onExit((code) => {
    process.stderr.write(`API server exited with code ${code}\n`);
    void stopAll(code);
  });
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));
  const kc = cp.kubeconfigPath;
  process.stdout.write(
    `API server ready on https://127.0.0.1:${cp.port}\nkubeconfig (admin, system:masters): ${kc}\n  kubectl --kubeconfig ${kc} get ns\n` +
      `add a user: make user NAME=alice GROUP=dev\nPress Ctrl-C to stop.\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    process.stderr.write(`run-local: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
