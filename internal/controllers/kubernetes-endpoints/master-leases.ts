/**
 * The live API servers' addresses, one etcd key each under kube's layout
 * (<--etcd-prefix>/masterleases/<ip>), each an Endpoints object naming the address and attached to
 * an etcd lease of the reconciler's TTL: a server that stops renewing drops out when it lapses.
 * Writes are kube's compare-and-swap shapes (mod_revision, 0 for a new key).
 */
import type { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../../api/meta/types.js';
import type { StorageCodec } from '../../storage/codec.js';
import type { LeaseManager } from '../../storage/etcd3/lease-manager.js';
import { prefixEnd } from '../../storage/etcd3/revision.js';

/** The addresses recorded in etcd. */
export class MasterLeases {
  private readonly baseKey: string;

  /** prefix: --etcd-prefix; ttlSeconds: how long an address lives without a renewal (kube's 15). */
  constructor(
    private readonly client: Etcd3,
    private readonly codec: StorageCodec,
    private readonly leases: LeaseManager,
    prefix: string,
    private readonly ttlSeconds: number,
  ) {
    this.baseKey = `${prefix.replace(/\/+$/, '')}/masterleases/`;
  }

  /** Every address with a live key. */
  async list(): Promise<string[]> {
    const res = await this.client.kv.range({ key: Buffer.from(this.baseKey), range_end: prefixEnd(this.baseKey) });
    const ips: string[] = [];
    for (const kv of res.kvs) {
      const obj = this.codec.decode(kv.key.toString(), kv.value);
      const ip = (obj.subsets as Array<{ addresses?: Array<{ ip?: string }> }> | undefined)?.[0]?.addresses?.[0]?.ip;
      if (ip) ips.push(ip);
    }
    return ips;
  }

  /**
   * Writes ip's key again with a fresh TTL. The object's generation is bumped on every write, as
   * kube's does: an unchanged object would not be written, and its TTL not refreshed.
   */
  async update(ip: string): Promise<void> {
    const key = Buffer.from(this.baseKey + ip);
    let res = await this.client.kv.range({ key });
    for (let attempt = 0; attempt < 10; attempt++) {
      const kv = res.kvs[0];
      const existing: KubeObject = kv ? this.codec.decode(kv.key.toString(), kv.value) : { kind: 'Endpoints', apiVersion: 'v1', metadata: {} };
      existing.metadata.generation = (existing.metadata.generation ?? 0) + 1;
      existing.subsets = [{ addresses: [{ ip }] }];
      const lease = await this.leases.getLease(this.ttlSeconds);
      const txn = await this.client.kv.txn({
        compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: kv ? kv.mod_revision : '0' }],
        success: [{ request_put: { key, value: this.codec.encode(existing), lease } }],
        failure: [{ request_range: { key } }],
      });
      if (txn.succeeded) return;
      res = txn.responses[0]?.response_range ?? (await this.client.kv.range({ key }));
    }
    throw new Error(`updating the master lease of ${ip}: too many conflicts`);
  }

  /** Deletes ip's key (no error when it is already gone). */
  async remove(ip: string): Promise<void> {
    const key = Buffer.from(this.baseKey + ip);
    for (let attempt = 0; attempt < 10; attempt++) {
      const kv = (await this.client.kv.range({ key })).kvs[0];
      if (!kv) return;
      const txn = await this.client.kv.txn({
        compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: kv.mod_revision }],
        success: [{ request_delete_range: { key } }],
        failure: [{ request_range: { key } }],
      });
      if (txn.succeeded) return;
    }
    throw new Error(`removing the master lease of ${ip}: too many conflicts`);
  }
}
