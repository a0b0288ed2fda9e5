/**
 * The etcd client with several members when one hangs (SIGSTOP: its connections stay open and
 * silent, as with a member behind a dead network path): gRPC keepalive drops the member's
 * connection, calls go to the other members instead of waiting for a new connection to it, and
 * they go on there. The server runs with kube's keepalive (30s
 * ping, 10s timeout) and waits 5s for a member's connection; here 1s each, so the test takes seconds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startLocalEtcdCluster, type EtcdMember, type LocalEtcdCluster } from '../../hack/local-etcd-cluster.js';
import { EtcdClientFactory } from '../../internal/storage/etcd3/client.js';

describe('etcd client: a hung member', () => {
  let cluster: LocalEtcdCluster;
  before(async () => {
    // etcd refuses pings more often than --grpc-keepalive-min-time (5s by default).
    cluster = await startLocalEtcdCluster({ members: 3, extraArgs: ['--grpc-keepalive-min-time=500ms'] });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('is dropped by keepalive within seconds; reads go on on the others', { timeout: 30_000 }, async () => {
    const factory = await EtcdClientFactory.load(cluster.files, { timeMs: 1000, timeoutMs: 1000 }, 1000);
    const client = factory.client(cluster.endpoints);
    try {
      await client.put('k').value('v');
      // Every member gets calls, so each has an established connection to hang on.
      for (let i = 0; i < 30; i++) await client.get('k').serializable(true).string();
      const hung = cluster.members[0] as EtcdMember;
      process.kill(hung.pid, 'SIGSTOP');
      try {
        const started = Date.now();
        for (let i = 0; i < 20; i++) {
          assert.equal(await client.get('k').serializable(true).options({ deadline: new Date(Date.now() + 20_000) }).string(), 'v');
        }
        const took = Date.now() - started;
        assert.ok(took < 10_000, `20 reads with ${hung.name} hung took ${took}ms`);
      } finally {
        process.kill(hung.pid, 'SIGCONT');
      }
    } finally {
      client.close();
    }
  });
});
