/**
 * Test support: one real etcd per test file, started by hack/local-etcd and stopped after the file.
 */
import { after, before } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startLocalEtcd, type LocalEtcd } from '../../hack/local-etcd.js';

/** A handle filled in by before() and torn down by after(). */
export interface EtcdFixture {
  etcd: LocalEtcd;
  client: Etcd3;
}

/** Registers before/after hooks that start and stop a throwaway etcd; read the fixture inside tests. */
export function useEtcd(): EtcdFixture {
  const fixture = {} as EtcdFixture;
  before(async () => {
    fixture.etcd = await startLocalEtcd();
    fixture.client = new Etcd3({ hosts: fixture.etcd.endpoint });
  });
  after(async () => {
    fixture.client?.close();
    await fixture.etcd?.stop();
  });
  return fixture;
}

/** A unique key prefix so tests in one file do not see each other's keys. */
export function uniquePrefix(name: string): string {
  return `/registry-${name}-${Math.random().toString(36).slice(2, 8)}`;
}
