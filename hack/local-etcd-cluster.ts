/**
 * A throwaway etcd cluster for tests and benchmarks: 1 or 3 members on 127.0.0.1 with client TLS
 * (client certificates required) and peer TLS, certificates made by internal/server/pki.ts (a CA,
 * one serving-and-peer certificate for 127.0.0.1/localhost, and a client certificate for the API
 * server). Each member can be stopped, killed and restarted (on the same ports and data), and told
 * to trust another client CA on its next start (certificate rotation tests).
 *
 * As a program (`node dist/hack/local-etcd-cluster.js [--members 1|3]`) it prints the flags that
 * point an API server at the cluster and keeps it running until SIGINT or SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../internal/server/pki.js';
import { freePort } from './local-etcd.js';

/** The files of the cluster's PKI. */
export interface EtcdClusterFiles {
  /** The CA that signed the members' and the client's certificates (--etcd-cafile). */
  readonly caFile: string;
  /** The API server's client certificate and key (--etcd-certfile, --etcd-keyfile). */
  readonly certFile: string;
  readonly keyFile: string;
}

/** One member of the cluster. */
export interface EtcdMember {
  readonly name: string;
  /** Its client URL (https://127.0.0.1:<port>). */
  readonly endpoint: string;
  /** The running process's pid (-1 while stopped). */
  readonly pid: number;
  /** Stops it (SIGTERM, SIGKILL after 5s), keeping its data. */
  stop(): Promise<void>;
  /** Kills it (SIGKILL), keeping its data. */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data; resolves when it answers /health. */
  start(): Promise<void>;
}

/** A running cluster. */
export interface LocalEtcdCluster {
  readonly members: readonly EtcdMember[];
  /** Every member's client URL, for --etcd-servers. */
  readonly endpoints: readonly string[];
  readonly files: EtcdClusterFiles;
  readonly ca: CertificateAuthority;
  readonly dir: string;
  /** The CA file members check client certificates against from their next start on. */
  setTrustedClientCA(pem: string): Promise<void>;
  /** Stops every member and removes the cluster's directory. Idempotent. */
  stop(): Promise<void>;
}

/** Options for startLocalEtcdCluster. */
export interface LocalEtcdClusterOptions {
  /** 1 or 3 (default 3). */
  readonly members?: number;
  /** Where each member's log goes (member name appended); discarded when absent. */
  readonly logPrefix?: string;
  /** More etcd flags for every member. */
  readonly extraArgs?: readonly string[];
}

interface Tls {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** The client files as they are now (a test may rotate them). */
async function currentTls(files: EtcdClusterFiles): Promise<Tls> {
  const [ca, cert, key] = await Promise.all([readFile(files.caFile, 'utf8'), readFile(files.certFile, 'utf8'), readFile(files.keyFile, 'utf8')]);
  return { ca, cert, key };
}

function etcdBinary(): string {
  return process.env.ETCD_BIN ?? 'etcd';
}

/** GET /health over TLS with the client certificate; true when etcd says so. */
async function healthy(endpoint: string, tls: Tls): Promise<boolean> {
  const url = new URL('/health', endpoint);
  return await new Promise((resolve) => {
    const req = httpsRequest({ host: url.hostname, servername: 'localhost', port: url.port, path: url.pathname, ca: tls.ca, cert: tls.cert, key: tls.key, timeout: 1000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(res.statusCode === 200 && /"health":\s*"true"/.test(body)));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function waitHealthy(endpoint: string, files: EtcdClusterFiles, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd at ${endpoint} exited with code ${child.exitCode} before it became healthy`);
    if (await healthy(endpoint, await currentTls(files))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd at ${endpoint} not healthy after ${timeoutMs}ms`);
}

/** Starts the cluster; resolves once every member answers /health. */
export async function startLocalEtcdCluster(options: LocalEtcdClusterOptions = {}): Promise<LocalEtcdCluster> {
  const count = options.members ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'capstan-etcd-cluster-'));
  const ca = await createCertificateAuthority('capstan-etcd-ca');
  const server = await issueCertificate(ca, { commonName: 'etcd', usage: 'both', dns: ['localhost'], ips: ['127.0.0.1'] });
  const client = await issueCertificate(ca, { commonName: 'capstan-apiserver', usage: 'client' });
  const files = { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'apiserver-etcd-client.crt'), keyFile: join(dir, 'apiserver-etcd-client.key') };
  const serverCert = join(dir, 'server.crt');
  const serverKey = join(dir, 'server.key');
  const trustedClientCA = join(dir, 'client-ca.crt');
  await writeFile(files.caFile, ca.certPem);
  await writeFile(trustedClientCA, ca.certPem);
  await writeFile(files.certFile, client.cert);
  await writeFile(files.keyFile, client.key, { mode: 0o600 });
  await writeFile(serverCert, server.cert);
  await writeFile(serverKey, server.key, { mode: 0o600 });

  const ports = [];
  for (let i = 0; i < count; i++) ports.push({ client: await freePort(), peer: await freePort() });
  const names = ports.map((_, i) => `m${i}`);
  const initialCluster = ports.map((p, i) => `${names[i]}=https://127.0.0.1:${p.peer}`).join(',');

  const members = ports.map((p, i) => {
    const name = names[i] as string;
    const endpoint = `https://127.0.0.1:${p.client}`;
    const peer = `https://127.0.0.1:${p.peer}`;
    const dataDir = join(dir, name);
    let child: ChildProcess | undefined;
    let started = false;
    const args = (): string[] => [
      '--name', name,
      '--data-dir', dataDir,
      '--listen-client-urls', endpoint,
      '--advertise-client-urls', endpoint,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', initialCluster,
      '--initial-cluster-state', 'new',
      '--initial-cluster-token', 'capstan-test',
      '--cert-file', serverCert,
      '--key-file', serverKey,
      '--client-cert-auth',
      '--trusted-ca-file', trustedClientCA,
      '--peer-cert-file', serverCert,
      '--peer-key-file', serverKey,
      '--peer-client-cert-auth',
      '--peer-trusted-ca-file', files.caFile,
      '--logger', 'zap',
      '--log-level', 'warn',
      ...(options.extraArgs ?? []),
    ];
    const terminate = async (signal: NodeJS.Signals): Promise<void> => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill(signal);
      const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    };
    const member: EtcdMember & { spawn(): ChildProcess; wait(): Promise<void> } = {
      name,
      endpoint,
      get pid() {
        return child && child.exitCode === null && child.signalCode === null ? (child.pid ?? -1) : -1;
      },
      spawn() {
        const fd = options.logPrefix ? openSync(`${options.logPrefix}${name}.log`, 'a') : 'ignore';
        child = spawn(etcdBinary(), args(), { stdio: ['ignore', fd, fd] });
        if (typeof fd === 'number') closeSync(fd);
        child.on('error', () => undefined);
        started = true;
        return child;
      },
      async wait() {
        await waitHealthy(endpoint, files, child as ChildProcess, 30_000);
      },
      stop: () => terminate('SIGTERM'),
      kill: () => terminate('SIGKILL'),
      async start() {
        if (started && member.pid !== -1) return;
        member.spawn();
        await member.wait();
      },
    };
    return member;
  });

  await mkdir(dir, { recursive: true });
  let stopped = false;
  const stopAll = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all(members.map((m) => m.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // Members of a new cluster wait for each other: all are started before any is awaited.
    for (const m of members) m.spawn();
    await Promise.all(members.map((m) => m.wait()));
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    members,
    endpoints: members.map((m) => m.endpoint),
    files,
    ca,
    dir,
    async setTrustedClientCA(pem) {
      await writeFile(trustedClientCA, pem);
    },
    stop: stopAll,
  };
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--members');
  const members = i >= 0 ? Number(process.argv[i + 1]) : 3;
  if (members !== 1 && members !== 3) throw new Error('--members must be 1 or 3');
  const cluster = await startLocalEtcdCluster({ members });
  const f = cluster.files;
  process.stdout.write(`--etcd-servers=${cluster.endpoints.join(',')} --etcd-cafile=${f.caFile} --etcd-certfile=${f.certFile} --etcd-keyfile=${f.keyFile}\n`);
  const shutdown = (): void => {
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    process.stderr.write(`local-etcd-cluster: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
