/**
 * A CRD with two versions and a Webhook conversion strategy, served live, against a real HTTPS
 * conversion webhook started by the test (v1 `spec.host` + `spec.port` <-> v2 `spec.address`):
 * objects are stored in the storage version (v1) and read in either version, lists are converted,
 * and a webhook that stops answering makes reads in the other version fail with kube's 500.
 * Needs the serving of custom resources (internal/apiextensions/serving/).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startConversionWebhook, type TestConversionWebhook } from '../support/conversion-webhook.js';
import { useServer } from '../support/server.js';

const fx = useServer();
let hook: TestConversionWebhook;

const group = 'conversion.example.com';
const crdName = `hostports.${group}`;
const v1Path = `/apis/${group}/v1/namespaces/default/hostports`;
const v2Path = `/apis/${group}/v2/namespaces/default/hostports`;

function crd(): Record<string, unknown> {
  const schema = (spec: Record<string, unknown>) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'hostports', singular: 'hostport', kind: 'HostPort', listKind: 'HostPortList' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema({ host: { type: 'string' }, port: { type: 'integer' } }) },
        { name: 'v2', served: true, storage: false, schema: schema({ address: { type: 'string' } }) },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { url: hook.url('/convert'), caBundle: hook.caBundle } },
      },
    },
  };
}

/** Retries fn until it returns true (the CRD is served once established). */
async function until(fn: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('CRD conversion webhook', () => {
  before(async () => {
    hook = await startConversionWebhook();
    const res = await fx.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd() });
    assert.equal(res.status, 201, res.text);
    await until(async () => (await fx.request('GET', v2Path)).status === 200 && (await fx.request('GET', v1Path)).status === 200, 'both versions served');
  });
  after(() => hook?.stop());

  it('stores an object created in v1 as v1 and reads it in v2 through the webhook', async () => {
    const created = await fx.request('POST', v1Path, {
      body: { apiVersion: `${group}/v1`, kind: 'HostPort', metadata: { name: 'db', labels: { app: 'db' } }, spec: { host: 'db.local', port: 5432 } },
    });
    assert.equal(created.status, 201, created.text);
    const v2 = await fx.request('GET', `${v2Path}/db`);
    assert.equal(v2.status, 200, v2.text);
    const obj = v2.json();
    assert.equal(obj.apiVersion, `${group}/v2`);
    assert.deepEqual(obj.spec, { address: 'db.local:5432' });
    assert.equal(obj.metadata.uid, created.json().metadata.uid);
    assert.deepEqual(obj.metadata.labels, { app: 'db' });
    const review = hook.reviews('/convert').find((r) => r.request.desiredAPIVersion === `${group}/v2`);
    assert.ok(review, 'the webhook was asked for v2');
    assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1');
    assert.equal(review.request.objects[0].apiVersion, `${group}/v1`);

    const etcd = new Etcd3({ hosts: fx.etcd.endpoint });
    try {
      const stored = JSON.parse((await etcd.get(`/registry/${group}/hostports/default/db`).string()) ?? '{}');
      assert.equal(stored.apiVersion, `${group}/v1`);
      assert.deepEqual(stored.spec, { host: 'db.local', port: 5432 });
    } finally {
      etcd.close();
    }
  });

  it('creates in v2 (stored as v1) and lists in either version', async () => {
    const created = await fx.request('POST', v2Path, { body: { apiVersion: `${group}/v2`, kind: 'HostPort', metadata: { name: 'cache' }, spec: { address: 'cache.local:6379' } } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json().spec, { address: 'cache.local:6379' });
    const v1 = await fx.request('GET', `${v1Path}/cache`);
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual(v1.json().spec, { host: 'cache.local', port: 6379 });
    const list = await fx.request('GET', v2Path);
    assert.equal(list.status, 200, list.text);
    const items = list.json().items as Array<Record<string, any>>;
    assert.deepEqual(
      items.map((i) => [i.apiVersion, i.metadata.name, i.spec.address]).sort(),
      [
        [`${group}/v2`, 'cache', 'cache.local:6379'],
        [`${group}/v2`, 'db', 'db.local:5432'],
      ],
    );
  });

  it('answers 500 with the webhook failure when the webhook refuses, while the storage version still reads', async () => {
    hook.tampers.set('/convert', (_r, ok) => ({ ...ok, response: { uid: ok.response.uid, result: { status: 'Failure', message: 'conversion is down for maintenance' } } }));
    try {
      const res = await fx.request('GET', `${v2Path}/db`);
      assert.equal(res.status, 500, res.text);
      const status = res.json();
      assert.equal(status.kind, 'Status');
      assert.match(status.message, /conversion webhook for .* failed: conversion is down for maintenance/);
      assert.equal((await fx.request('GET', `${v1Path}/db`)).status, 200);
    } finally {
      hook.tampers.delete('/convert');
    }
  });
});
