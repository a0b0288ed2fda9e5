import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Etcd3 } from 'etcd3';
import { codecForMediaType } from '../codec.js';
import { composeEtcdInstruments, type EtcdInstrument } from './instrument.js';
import { Etcd3Store } from './store.js';

/** Records every call it observes as "op key ok|error". */
function recorder(log: string[]): EtcdInstrument {
  return { start: (op, key) => (err) => void log.push(`${op} ${key} ${err === undefined ? 'ok' : 'error'}`) };
}

describe('etcd instrument', () => {
  it("the store reports each Range and Txn once it settles, with the failure's error", async () => {
    const log: string[] = [];
    const header = { revision: '7' };
    let fail = false;
    const client = {
      kv: {
        range: async () => {
          if (fail) throw Object.assign(new Error('unavailable'), { code: 14 });
          return { header, kvs: [], count: '0' };
        },
        txn: async () => ({ header, succeeded: true, responses: [] }),
      },
    } as unknown as Etcd3;
    const store = new Etcd3Store(client, { prefix: '/registry', codec: codecForMediaType('application/json'), instrument: recorder(log) });
    await assert.rejects(store.get('/configmaps/ns/a', { resourceVersion: '' }), /not found/);
    await store.create('/configmaps/ns/b', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'ns' } });
    fail = true;
    await assert.rejects(store.get('/configmaps/ns/a', { resourceVersion: '' }));
    assert.deepEqual(log, ['Range /registry/configmaps/ns/a ok', 'Txn /registry/configmaps/ns/b ok', 'Range /registry/configmaps/ns/a error']);
  });

  it('composes: none is undefined, one is itself, several each observe', () => {
    const a: string[] = [];
    const b: string[] = [];
    assert.equal(composeEtcdInstruments(undefined), undefined);
    const one = recorder(a);
    assert.equal(composeEtcdInstruments(undefined, one), one);
    const both = composeEtcdInstruments(recorder(a), undefined, recorder(b)) as EtcdInstrument;
    both.start('Txn', '/k')(new Error('x'));
    assert.deepEqual([a, b], [['Txn /k error'], ['Txn /k error']]);
  });
});
