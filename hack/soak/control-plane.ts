/**
 * The soak's control plane: a three-member etcd cluster on loopback (hack/local-etcd-cluster.ts)
 * and API servers run from the built server (dist/cmd/apiserver/main.js) as child processes, each
 * on a fixed port, sharing one certificate directory (the first server makes the serving CA and
 * certificate, the others and every restart reuse them), so a restart comes back where clients
 * expect it. A
 * server is marked down from the moment it is told to stop until it is ready again, as a load
 * balancer's health check would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEtcdCluster, type LocalEtcdCluster } from '../local-etcd-cluster.js';
import { freePort } from '../local-etcd.js';
import { waitReady } from '../run-local.js';

/** An API server child that can be restarted. */
export interface ApiServer {
  readonly name: string;
  readonly port: number;
  /** The serving CA (stable across restarts: the certificate directory is kept). */
  ca: string;
  /** The running child's pid, -1 while down. */
  readonly pid: number;
  /** False from stop() until start() finds it ready. */
  readonly up: boolean;
  /** Starts the child and waits until /readyz answers 200. */
  start(): Promise<void>;
  /** SIGTERM (a graceful shutdown) and waits for the exit; SIGKILL after timeoutMs. Resolves how long it took and whether it had to be killed. */
  stop(timeoutMs?: number): Promise<{ ms: number; killed: boolean; code: number | null }>;
  /** Called when the child exits without having been told to. */
  onUnexpectedExit(handler: (code: number | null, signal: string | null) => void): void;
}

/** The soak's running control plane. */
export interface ControlPlane {
  readonly etcd: LocalEtcdCluster;
  readonly servers: readonly ApiServer[];
  /** The bearer token of the soak's admin (system:masters). */
  readonly token: string;
  readonly dir: string;
  /** Stops the servers, then etcd. */
  stop(): Promise<void>;
}

const serverMain = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cmd', 'apiserver', 'main.js');

function startServerChild(name: string, port: number, args: readonly string[], logFile: string): ApiServer {
  let child: ChildProcess | undefined;
  let up = false;
  let stopping = false;
  let unexpected: (code: number | null, signal: string | null) => void = () => undefined;
  const certDir = args.find((a) => a.startsWith('--cert-dir='))?.slice('--cert-dir='.length) ?? '';
  const server: ApiServer = {
    name,
    port,
    ca: '',
    get pid() {
      return child && child.exitCode === null && child.signalCode === null ? (child.pid ?? -1) : -1;
    },
    get up() {
      return up;
    },
    async start() {
      stopping = false;
      const fd = openSync(logFile, 'a');
      const c = spawn(process.execPath, [serverMain, ...args], { stdio: ['ignore', fd, fd] });
      closeSync(fd);
      child = c;
      c.once('exit', (code, signal) => {
        up = false;
        if (!stopping) unexpected(code, signal);
      });
      await waitReady(port, () => readFile(join(certDir, 'ca.crt'), 'utf8'), 90_000);
      server.ca = await readFile(join(certDir, 'ca.crt'), 'utf8');
      up = true;
    },
    async stop(timeoutMs = 90_000) {
      const c = child;
      up = false;
      stopping = true;
      const began = Date.now();
      if (!c || c.exitCode !== null || c.signalCode !== null) return { ms: 0, killed: false, code: c?.exitCode ?? null };
      const exited = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        c.kill('SIGKILL');
      }, timeoutMs);
      c.kill('SIGTERM');
      const code = await exited;
      clearTimeout(timer);
      return { ms: Date.now() - began, killed, code };
    },
    onUnexpectedExit(handler) {
      unexpected = handler;
    },
  };
  return server;
}

/** Starts etcd (three members) and `count` API servers on it; logs go to dir. */
export async function startControlPlane(dir: string, count: number): Promise<ControlPlane> {
  await mkdir(dir, { recursive: true });
  const etcd = await startLocalEtcdCluster({ members: 3, logPrefix: join(dir, 'etcd-') });
  const token = `soak-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const tokenFile = join(dir, 'tokens.csv');
  await writeFile(tokenFile, `${token},soak-admin,soak-admin,"system:masters"\n`, { mode: 0o600 });
  const f = etcd.files;
  const servers: ApiServer[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = `apiserver-${i}`;
      const port = await freePort();
      const args = [
        `--etcd-servers=${etcd.endpoints.join(',')}`,
        `--etcd-cafile=${f.caFile}`,
        `--etcd-certfile=${f.certFile}`,
        `--etcd-keyfile=${f.keyFile}`,
        // One serving certificate (and CA) for every server, as behind one load-balanced address:
        // each server's root CA publisher then publishes the same kube-root-ca.crt.
        `--cert-dir=${join(dir, 'serving-certs')}`,
        `--secure-port=${port}`,
        `--token-auth-file=${tokenFile}`,
        '--authorization-mode=Node,RBAC',
        // Every acknowledged event is checked at the end: none may expire during the run.
        '--event-ttl=24h',
      ];
      const s = startServerChild(name, port, args, join(dir, `${name}.log`));
      await s.start();
      servers.push(s);
    }
  } catch (err) {
    for (const s of servers) await s.stop();
    await etcd.stop();
    throw err;
  }
  return {
    etcd,
    servers,
    token,
    dir,
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      await etcd.stop();
    },
  };
}
