/**
 * Test support: reading an etcd member's own /metrics over its client TLS (etcd's gRPC and raft
 * metrics), e.g. to find the leader of a test cluster.
 */
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import type { EtcdMember, LocalEtcdCluster } from '../../hack/local-etcd-cluster.js';

/** The value of the first sample whose line starts with prefix (e.g. "etcd_server_is_leader "); NaN when absent. */
export async function etcdMetric(cluster: LocalEtcdCluster, member: EtcdMember, prefix: string): Promise<number> {
  const [ca, cert, key] = await Promise.all([readFile(cluster.files.caFile), readFile(cluster.files.certFile), readFile(cluster.files.keyFile)]);
  const url = new URL('/metrics', member.endpoint);
  const text = await new Promise<string>((resolve, reject) => {
    httpsRequest({ host: url.hostname, port: url.port, path: url.pathname, ca, cert, key, servername: 'localhost' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return Number(line?.split(' ')[1] ?? 'NaN');
}

/** The member that is the raft leader now, or undefined while there is none. */
export async function etcdLeader(cluster: LocalEtcdCluster): Promise<EtcdMember | undefined> {
  for (const m of cluster.members) {
    try {
      if ((await etcdMetric(cluster, m, 'etcd_server_is_leader ')) === 1) return m;
    } catch {
      // A member that is down is not the leader.
    }
  }
  return undefined;
}
