/**
 * What every namespace gets from the loops Capstan runs in place of kube-controller-manager's:
 * the "default" ServiceAccount (serviceaccount-controller) and the kube-root-ca.crt ConfigMap
 * (root-ca-cert-publisher), both recreated when deleted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer();

async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const exists = async (path: string) => {
  const r = await fx.request('GET', path);
  return r.status === 200 ? r.json() : undefined;
};

describe('namespace defaults', () => {
  it('a new namespace gets its default ServiceAccount and kube-root-ca.crt, recreated when deleted', async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'fresh' } } })).status, 201);
    const sa = await eventually(() => exists('/api/v1/namespaces/fresh/serviceaccounts/default'));
    assert.equal(sa.metadata.name, 'default');
    const cm = await eventually(() => exists('/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt'));
    assert.match(cm.data['ca.crt'], /^-----BEGIN CERTIFICATE-----/);
    assert.match(cm.metadata.annotations['kubernetes.io/description'], /^Contains a CA bundle that can be used to verify the kube-apiserver/);

    assert.equal((await fx.request('DELETE', '/api/v1/namespaces/fresh/serviceaccounts/default')).status, 200);
    const again = await eventually(async () => {
      const s = await exists('/api/v1/namespaces/fresh/serviceaccounts/default');
      return s && s.metadata.uid !== sa.metadata.uid ? s : undefined;
    });
    assert.equal(again.metadata.name, 'default');

    // A changed bundle is put back.
    const put = await fx.request('PUT', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt', { body: { ...cm, data: { 'ca.crt': 'tampered' } } });
    assert.equal(put.status, 200);
    await eventually(async () => {
      const c = await exists('/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt');
      return c?.data['ca.crt'] === cm.data['ca.crt'] ? c : undefined;
    });
  });

  it('the system namespaces have theirs too', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await eventually(() => exists(`/api/v1/namespaces/${ns}/serviceaccounts/default`));
    }
  });
});

describe('--controllers turns the copies of kube-controller-manager loops off', () => {
  const off = useServer({}, ['--controllers=*,-serviceaccount,-namespace-controller']);

  it('no default ServiceAccount is made, and a deleted namespace stays Terminating', async () => {
    assert.equal((await off.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'manual' } } })).status, 201);
    // The publisher is still on: once its ConfigMap is there, the account controller had its chance too.
    const deadline = Date.now() + 10_000;
    while ((await off.request('GET', '/api/v1/namespaces/manual/configmaps/kube-root-ca.crt')).status !== 200) {
      assert.ok(Date.now() < deadline, 'kube-root-ca.crt never came');
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await off.request('GET', '/api/v1/namespaces/manual/serviceaccounts/default')).status, 404);
    assert.equal((await off.request('DELETE', '/api/v1/namespaces/manual')).status, 200);
    await new Promise((r) => setTimeout(r, 1000));
    const ns = await off.request('GET', '/api/v1/namespaces/manual');
    assert.equal(ns.status, 200);
    assert.equal(ns.json().status.phase, 'Terminating');
  });
});
