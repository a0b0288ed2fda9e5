import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Etcd3 } from 'etcd3';
import { LeaseManager } from './lease-manager.js';

function fakeClient(): { client: Etcd3; grants: number[] } {
  const grants: number[] = [];
  const client = {
    leaseClient: {
      leaseGrant: async (req: { TTL: number }) => {
        grants.push(req.TTL);
        return { ID: String(grants.length), TTL: String(req.TTL) };
      },
    },
  } as unknown as Etcd3;
  return { client, grants };
}

describe('etcd lease manager', () => {
  it('reuses a lease within 5% of the TTL, capped by --lease-reuse-duration-seconds', async () => {
    let now = 0;
    const { client, grants } = fakeClient();
    const m = new LeaseManager(client, 60, () => now);
    assert.equal(await m.getLease(3600), '1');
    // 5% of an hour is 180 s, capped at 60: one lease of 3660 s, reused for 60 s.
    assert.deepEqual(grants, [3660]);
    now = 59_000;
    assert.equal(await m.getLease(3600), '1');
    now = 61_000;
    assert.equal(await m.getLease(3600), '2');
  });

  it('gives a short TTL (the 15 s master leases) a fresh lease each time', async () => {
    const { client, grants } = fakeClient();
    const m = new LeaseManager(client, 60, () => 0);
    await m.getLease(15);
    await m.getLease(15);
    assert.deepEqual(grants, [15, 15]);
  });

  it('a smaller cap means shorter reuse', async () => {
    let now = 0;
    const { client, grants } = fakeClient();
    const m = new LeaseManager(client, 10, () => now);
    await m.getLease(3600);
    now = 11_000;
    await m.getLease(3600);
    assert.deepEqual(grants, [3610, 3610]);
  });
});
