/**
 * --etcd-servers-overrides=/events#<second etcd>: events (core and events.k8s.io, which share
 * their keys as in kube) are stored only on the second etcd, read back, listed and watched from
 * there (through a watch cache of their own, turned on for events here), and that etcd gets a
 * compactor of its own; everything else stays on --etcd-servers.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { after, describe, it } from 'node:test';
import { startLocalEtcd, type LocalEtcd } from '../../hack/local-etcd.js';
import { etcdctlGet } from '../support/etcdctl.js';
import { useServer } from '../support/server.js';

let eventsEtcd: LocalEtcd | undefined;
const fx = useServer({ etcdCompactionIntervalMs: 500 }, async () => {
  eventsEtcd = await startLocalEtcd();
  return [`--etcd-servers-overrides=/events#${eventsEtcd.endpoint}`, '--watch-cache-sizes=events#100'];
});
after(async () => {
  await eventsEtcd?.stop();
});

const event = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
  reason: 'Test',
  message: name,
  type: 'Normal',
});

async function eventually(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('--etcd-servers-overrides', () => {
  it('events land only on their etcd; other resources only on --etcd-servers', async () => {
    const other = (eventsEtcd as LocalEtcd).endpoint;
    assert.equal((await fx.request('POST', '/api/v1/namespaces/default/events', { body: event('ev-a') })).status, 201);
    const v1 = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'ev-b' },
      eventTime: new Date().toISOString().replace(/\.\d+Z$/, '.000000Z'),
      reportingController: 'test/c',
      reportingInstance: 'i',
      action: 'Act',
      reason: 'Test',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
      type: 'Normal',
    };
    const created = await fx.request('POST', '/apis/events.k8s.io/v1/namespaces/default/events', { body: v1 });
    assert.equal(created.status, 201, created.text);
    assert.equal((await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-main' } } })).status, 201);
    for (const name of ['ev-a', 'ev-b']) {
      assert.ok((await etcdctlGet(other, `/registry/events/default/${name}`)).length > 0, `${name} on the events etcd`);
      assert.equal((await etcdctlGet(fx.etcd.endpoint, `/registry/events/default/${name}`)).length, 0, `${name} not on the main etcd`);
    }
    assert.ok((await etcdctlGet(fx.etcd.endpoint, '/registry/configmaps/default/cm-main')).length > 0);
    assert.equal((await etcdctlGet(other, '/registry/configmaps/default/cm-main')).length, 0);
    const read = await fx.request('GET', '/api/v1/namespaces/default/events/ev-b');
    assert.deepEqual([read.status, read.json().reason], [200, 'Test']);
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/events/ev-a')).json().message, 'ev-a');
  });

  it('events are listed and watched from their etcd', async () => {
    const list = await fx.request('GET', '/api/v1/namespaces/default/events');
    assert.equal(list.status, 200);
    const names = (list.json().items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name).sort();
    assert.deepEqual(names, ['ev-a', 'ev-b']);
    const seen: string[] = [];
    const req = httpsRequest(
      { host: '127.0.0.1', port: fx.port, ca: fx.ca, servername: 'localhost', path: `/api/v1/namespaces/default/events?watch=1&resourceVersion=${list.json().metadata.resourceVersion}` },
      (res) => {
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString();
          for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
            const e = JSON.parse(buf.slice(0, nl));
            buf = buf.slice(nl + 1);
            seen.push(`${e.type} ${e.object.metadata.name}`);
          }
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', () => undefined);
    req.end();
    try {
      await new Promise((r) => setTimeout(r, 200));
      assert.equal((await fx.request('POST', '/api/v1/namespaces/default/events', { body: event('ev-c') })).status, 201);
      assert.equal((await fx.request('DELETE', '/api/v1/namespaces/default/events/ev-a')).status, 200);
      await eventually('the watch events', () => seen.length >= 2);
      assert.deepEqual(seen, ['ADDED ev-c', 'DELETED ev-a']);
    } finally {
      req.destroy();
    }
  });

  it('each etcd has its own compactor', async () => {
    const other = (eventsEtcd as LocalEtcd).endpoint;
    await eventually('compact_rev_key on both etcds', async () => (await etcdctlGet(other, 'compact_rev_key')).length > 0 && (await etcdctlGet(fx.etcd.endpoint, 'compact_rev_key')).length > 0);
  });
});
