/**
 * What the soak does to etcd directly, through its JSON gateway with the API server's client
 * certificate: read the current revision and compact to it (as another compactor would), and read
 * a process's resident memory from /proc.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import type { LocalEtcdCluster } from '../local-etcd-cluster.js';

async function gateway(cluster: LocalEtcdCluster, endpoint: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const f = cluster.files;
  const [ca, cert, key] = await Promise.all([readFile(f.caFile, 'utf8'), readFile(f.certFile, 'utf8'), readFile(f.keyFile, 'utf8')]);
  const url = new URL(path, endpoint);
  const payload = JSON.stringify(body);
  return await new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', ca, cert, key, servername: 'localhost', timeout: 10_000, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text) as Record<string, unknown>) : reject(new Error(`etcd ${path}: ${res.statusCode} ${text.slice(0, 200)}`))));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`etcd ${path}: timeout`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Compacts the cluster's history up to its current revision; resolves that revision. */
export async function compactToCurrent(cluster: LocalEtcdCluster): Promise<number> {
  const live = cluster.members.filter((m) => m.pid !== -1);
  const endpoint = (live[0] ?? cluster.members[0])?.endpoint as string;
  const range = await gateway(cluster, endpoint, '/v3/kv/range', { key: Buffer.from('/registry/').toString('base64'), limit: 1 });
  const revision = Number((range.header as { revision: string }).revision);
  await gateway(cluster, endpoint, '/v3/kv/compaction', { revision: String(revision), physical: true });
  return revision;
}

/** A process's resident set size in bytes from /proc/<pid>/status; NaN when it is not running. */
export async function residentBytes(pid: number): Promise<number> {
  if (pid <= 0) return Number.NaN;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
