/**
 * The etcd3 store's observer hook on a real etcd: every etcd request a resource's view makes is
 * reported once, after it finished, with kube's operation name, the resource as its type and any
 * error; counting reports listWithCount with the key prefix.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { jsonCodec } from '../../internal/storage/codec.js';
import type { EtcdOperation } from '../../internal/storage/etcd3/observer.js';
import { Etcd3Store } from '../../internal/storage/etcd3/store.js';
import type { ListOptions } from '../../internal/storage/interface.js';
import { uniquePrefix, useEtcd } from '../support/etcd.js';

const fx = useEtcd();
const everything: ListOptions = { resourceVersion: '', resourceVersionMatch: '', recursive: true, predicate: { everything: true, matches: () => true } };

describe('etcd3 store observer', () => {
  it('reports each etcd request with its operation, type, start and error', async () => {
    const seen: Array<[EtcdOperation, string, boolean]> = [];
    const prefix = uniquePrefix('observer');
    const root = new Etcd3Store(fx.client, {
      prefix,
      codec: jsonCodec,
      observe: (op, type, startedAt, error) => {
        assert.ok(startedAt > 0 && startedAt <= performance.now());
        seen.push([op, type, error !== undefined]);
      },
    });
    const store = root.forResource({ group: 'apps', resource: 'deployments' }, '/deployments');
    assert.equal(root.forResource({ group: 'apps', resource: 'deployments' }, '/deployments'), store);
    const obj: KubeObject = { metadata: { name: 'a', namespace: 'ns' } };
    await store.create('/deployments/ns/a', obj);
    await assert.rejects(store.create('/deployments/ns/a', obj));
    await store.get('/deployments/ns/a', { resourceVersion: '' });
    await store.guaranteedUpdate('/deployments/ns/a', { ignoreNotFound: false, tryUpdate: (o) => ({ ...o, metadata: { ...o.metadata, labels: { x: 'y' } } }) });
    await store.getList('/deployments', everything);
    const w = await store.watch('/deployments', { ...everything, resourceVersion: await store.currentRevision() });
    w.stop();
    await store.delete('/deployments/ns/a', {});
    assert.equal(await root.count('/deployments'), 0);
    assert.deepEqual(root.resources(), [{ resource: 'deployments.apps', keyPrefix: '/deployments' }]);
    const t = 'deployments.apps';
    assert.deepEqual(seen, [
      ['create', t, false],
      ['create', t, false], // the transaction ran; the key existed (not an etcd error)
      ['get', t, false],
      ['get', t, false], // guaranteedUpdate reads the current object
      ['update', t, false],
      ['list', t, false],
      ['list', t, false], // currentRevision
      ['get', t, false], // the watch checks its start revision is available
      ['watch', t, false],
      ['get', t, false], // delete reads the current object
      ['delete', t, false],
      ['listWithCount', `${prefix}/deployments/`, false],
    ]);
  });
});
