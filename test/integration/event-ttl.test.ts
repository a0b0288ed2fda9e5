/**
 * --event-ttl: events are written to etcd bound to a lease of the TTL, so etcd removes them and
 * they vanish from get, list and watch (DELETED) once it runs out; other objects carry no lease.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

const fx = useServer({}, ['--event-ttl=3s']);
let client: Etcd3 | undefined;
after(() => client?.close());

const events = '/api/v1/namespaces/default/events';

async function leaseOf(key: string): Promise<string | undefined> {
  client ??= new Etcd3({ hosts: fx.etcd.endpoint });
  const res = await client.kv.range({ key: Buffer.from(key) });
  return res.kvs[0]?.lease;
}

function event(name: string): unknown {
  return {
    metadata: { name },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
    reason: 'Started',
    message: 'started',
    type: 'Normal',
    count: 1,
  };
}

describe('event TTL', () => {
  it('an Event is gone from get, list and watch about 3 s after its write', async () => {
    const created = await fx.request('POST', events, { body: event('short.1') });
    assert.equal(created.status, 201, created.text);
    const writtenAt = Date.now();
    const lease = await leaseOf('/registry/events/default/short.1');
    assert.ok(lease && lease !== '0', `the event key is bound to a lease (${String(lease)})`);
    const cm = await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'no-ttl' } } });
    assert.equal(cm.status, 201);
    assert.equal(await leaseOf('/registry/configmaps/default/no-ttl'), '0', 'other objects have no lease');

    const w = await openWatch(fx, `${events}?watch=1&resourceVersion=${created.json().metadata.resourceVersion}`);
    assert.equal((await fx.request('GET', `${events}/short.1`)).status, 200);
    const deleted = await w.next(10_000);
    const elapsed = Date.now() - writtenAt;
    assert.deepEqual([deleted?.type, deleted?.object?.metadata?.name], ['DELETED', 'short.1']);
    assert.ok(elapsed >= 2500 && elapsed < 9000, `gone after ${elapsed} ms`);
    w.close();
    assert.equal((await fx.request('GET', `${events}/short.1`)).status, 404);
    const list = (await fx.request('GET', events)).json();
    assert.ok(!list.items.some((e: any) => e.metadata.name === 'short.1'));
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps/no-ttl')).status, 200);
  });

  it('events.k8s.io/v1 events and updates are bound to a lease too', async () => {
    const created = await fx.request('POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      body: {
        metadata: { name: 'new.1' },
        eventTime: '2024-05-01T10:00:00.000000Z',
        regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
        reportingController: 'kubelet',
        reportingInstance: 'node-1',
        action: 'Pulling',
        reason: 'Pulling',
        type: 'Normal',
        note: 'pulling',
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.notEqual(await leaseOf('/registry/events/default/new.1'), '0');
    const patched = await fx.request('PATCH', `${events}/new.1`, { rawBody: '{"message":"changed"}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 200, patched.text);
    assert.notEqual(await leaseOf('/registry/events/default/new.1'), '0');
  });

  it('refuses a TTL that is not positive', async () => {
    const { groupOptionsFromFlags } = await import('../support/server.js');
    assert.throws(() => groupOptionsFromFlags(['--event-ttl=0s']), /--event-ttl must be greater than 0/);
    assert.equal(groupOptionsFromFlags([]).events?.ttlMs ?? 3_600_000, 3_600_000);
  });
});
