import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { startConversionWebhook, type TestConversionWebhook } from '../../../test/support/conversion-webhook.js';
import type { KubeObject } from '../../../api/meta/types.js';
import { newNotFound } from '../../apierrors/factories.js';
import type { RestStorage } from '../../registry/interface.js';
import type { RequestContext } from '../../request/context.js';
import { buildConverter, ConversionError, type ConverterDeps } from './index.js';

type Json = Record<string, any>;

const crd = (clientConfig: Json, conversionReviewVersions: string[] = ['v1', 'v1beta1']) =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'endpoints.example.com' },
    spec: {
      group: 'example.com',
      versions: [{ name: 'v1' }, { name: 'v2' }],
      conversion: { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions } },
    },
  }) as KubeObject;

const v1 = (name = 'a', extra: Json = {}) =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Endpoint',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', labels: { app: 'x' }, ...extra },
    spec: { host: 'db.local', port: 5432 },
  }) as KubeObject;

/** A storageOf serving the given objects by resource (get by namespace/name; list filtered by label). */
function fakeStorage(objects: Record<string, KubeObject[]>): ConverterDeps['storageOf'] {
  return (group, resource) => {
    const items = objects[group ? `${resource}.${group}` : resource] ?? [];
    const storage: RestStorage = {
      get: async (ctx: RequestContext, name: string) => {
        const found = items.find((o) => o.metadata.namespace === ctx.requestInfo.namespace && o.metadata.name === name);
        if (!found) throw newNotFound({ group, resource }, name);
        return found;
      },
      list: async (ctx: RequestContext, opts) => ({
        items: items.filter((o) => o.metadata.namespace === ctx.requestInfo.namespace && opts.labelSelector.matches(o.metadata.labels ?? {})),
        resourceVersion: '1',
      }),
    };
    return storage;
  };
}

const noStorage: ConverterDeps = { storageOf: () => undefined };

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const failedPrefix = 'Internal error occurred: conversion for example.com/v1, Kind=Endpoint';

describe('CR conversion webhook', () => {
  let hook: TestConversionWebhook;
  before(async () => {
    hook = await startConversionWebhook(['hook.webhooks.svc']);
  });
  after(() => hook.stop());

  const viaUrl = (path: string, versions?: string[]) => buildConverter(crd({ url: hook.url(path), caBundle: hook.caBundle }, versions), noStorage);

  it('converts v1 to v2 and back through a URL, keeping the original metadata', async () => {
    const c = viaUrl('/happy');
    const original = v1();
    const [v2] = await c.convert([original], 'example.com/v2');
    assert.deepEqual(v2, { apiVersion: 'example.com/v2', kind: 'Endpoint', metadata: original.metadata, spec: { address: 'db.local:5432' } });
    const [review] = hook.reviews('/happy');
    assert.equal(review?.apiVersion, 'apiextensions.k8s.io/v1');
    assert.equal(review?.kind, 'ConversionReview');
    assert.match(review?.request.uid, /^[0-9a-f-]{36}$/);
    assert.equal(review?.request.desiredAPIVersion, 'example.com/v2');
    assert.deepEqual(review?.request.objects, [original]);
    const [back] = await c.convert([v2 as KubeObject], 'example.com/v1');
    assert.deepEqual(back, original);
    c.close?.();
  });

  it('sends only the objects not yet in the wanted version, a list in one review', async () => {
    const c = viaUrl('/list');
    const already = { ...v1('b'), apiVersion: 'example.com/v2', spec: { address: 'b:1' } } as KubeObject;
    const out = await c.convert([v1('a'), already, v1('c')], 'example.com/v2', { list: true });
    assert.deepEqual(
      out.map((o) => [o.metadata.name, (o.spec as Json).address]),
      [
        ['a', 'db.local:5432'],
        ['b', 'b:1'],
        ['c', 'db.local:5432'],
      ],
    );
    assert.equal(out[1], already);
    const reviews = hook.reviews('/list');
    assert.equal(reviews.length, 1);
    assert.deepEqual(
      reviews[0]?.request.objects.map((o: Json) => o.metadata.name),
      ['a', 'c'],
    );
    await c.convert([already], 'example.com/v2');
    assert.equal(hook.reviews('/list').length, 1, 'nothing to convert: no call');
    c.close?.();
  });

  it('reaches a service through its Endpoints, verifying the certificate for <service>.<namespace>.svc', async () => {
    const storageOf = fakeStorage({
      services: [{ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'webhooks', name: 'hook' }, spec: { clusterIP: '10.0.0.9', ports: [{ name: 'https', port: 443 }] } } as KubeObject],
      endpoints: [
        { apiVersion: 'v1', kind: 'Endpoints', metadata: { namespace: 'webhooks', name: 'hook' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: hook.port }] }] } as KubeObject,
      ],
    });
    const c = buildConverter(crd({ service: { namespace: 'webhooks', name: 'hook', path: '/svc' }, caBundle: hook.caBundle }), { storageOf });
    const [out] = await c.convert([v1()], 'example.com/v2');
    assert.equal((out?.spec as Json).address, 'db.local:5432');
    assert.equal(hook.reviews('/svc').length, 1);
    const missing = buildConverter(crd({ service: { namespace: 'webhooks', name: 'gone', path: '/svc' }, caBundle: hook.caBundle }), { storageOf });
    await assert.rejects(missing.convert([v1()], 'example.com/v2'), {
      message: `${failedPrefix} failed: conversion webhook for /, Kind= failed: Post "https://gone.webhooks.svc:443/svc?timeout=30s": service "gone" not found`,
    });
    c.close?.();
    missing.close?.();
  });

  it('reaches a service at its cluster IP with cluster-ip routing (kube without --enable-aggregator-routing)', async () => {
    const storageOf = fakeStorage({
      services: [{ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'webhooks', name: 'hook' }, spec: { clusterIP: '127.0.0.1', ports: [{ port: hook.port }] } } as KubeObject],
    });
    const c = buildConverter(crd({ service: { namespace: 'webhooks', name: 'hook', path: '/cluster-ip', port: hook.port }, caBundle: hook.caBundle }), { storageOf, serviceRouting: 'cluster-ip' });
    const [out] = await c.convert([v1()], 'example.com/v2');
    assert.equal((out?.spec as Json).address, 'db.local:5432');
    assert.equal(hook.reviews('/cluster-ip').length, 1);
    c.close?.();
  });

  it('refuses an answer for another uid', async () => {
    hook.tampers.set('/uid', (_r, ok) => ({ ...ok, response: { ...ok.response, uid: 'other' } }));
    const c = viaUrl('/uid');
    const uidOf = () => hook.reviews('/uid').at(-1)?.request.uid;
    const err = (await c.convert([v1()], 'example.com/v2').catch((e: unknown) => e)) as ConversionError;
    assert.ok(err instanceof ConversionError);
    assert.equal(err.code, 500);
    assert.equal(err.detail, `conversion for example.com/v1, Kind=Endpoint failed: conversion webhook for /, Kind= failed: expected response.uid="${uidOf()}", got "other"`);
    c.close?.();
  });

  it('fails with the message of a failed result, or kube text without one', async () => {
    hook.tampers.set('/failed', (_r, ok) => ({ ...ok, response: { uid: ok.response.uid, result: { status: 'Failure', message: 'cannot convert spec.host' } } }));
    hook.tampers.set('/failed-silent', (_r, ok) => ({ ...ok, response: { uid: ok.response.uid, result: { status: 'Failure' } } }));
    await assert.rejects(viaUrl('/failed').convert([v1()], 'example.com/v2'), { message: `${failedPrefix} failed: conversion webhook for /, Kind= failed: cannot convert spec.host` });
    await assert.rejects(viaUrl('/failed-silent').convert([v1()], 'example.com/v2'), {
      message: `${failedPrefix} failed: conversion webhook for /, Kind= failed: response.result.status was 'Failure', not 'Success'`,
    });
  });

  it('refuses a wrong number of objects, naming the list it converted', async () => {
    hook.tampers.set('/count', (_r, ok) => ({ ...ok, response: { ...ok.response, convertedObjects: ok.response.convertedObjects.slice(1) } }));
    await assert.rejects(viaUrl('/count').convert([v1('a'), v1('b')], 'example.com/v2', { list: true }), {
      message: 'Internal error occurred: conversion for example.com/v1, Kind=EndpointList returned 1 objects, expected 2',
    });
  });

  it('refuses objects in another version, of another kind, or renamed', async () => {
    hook.tampers.set('/version', (_r, ok) => ({ ...ok, response: { ...ok.response, convertedObjects: [{ ...ok.response.convertedObjects[0], apiVersion: 'example.com/v1' }] } }));
    hook.tampers.set('/kind', (_r, ok) => ({ ...ok, response: { ...ok.response, convertedObjects: [{ ...ok.response.convertedObjects[0], kind: 'Other' }] } }));
    hook.tampers.set('/name', (_r, ok) => {
      const o = ok.response.convertedObjects[0];
      return { ...ok, response: { ...ok.response, convertedObjects: [{ ...o, metadata: { ...o.metadata, name: 'renamed' } }] } };
    });
    await assert.rejects(viaUrl('/version').convert([v1()], 'example.com/v2'), {
      message: `${failedPrefix} returned invalid converted object at index 1: invalid groupVersion (expected example.com/v2, received example.com/v1)`,
    });
    await assert.rejects(viaUrl('/kind').convert([v1()], 'example.com/v2'), { message: `${failedPrefix} returned invalid converted object at index 1: invalid kind (expected Endpoint, received Other)` });
    await assert.rejects(viaUrl('/name').convert([v1()], 'example.com/v2'), { message: `${failedPrefix} returned invalid converted object at index 1: must have the same name: a != renamed` });
  });

  it('keeps label and annotation changes, restores the rest of metadata, and validates the labels', async () => {
    hook.tampers.set('/labels', (_r, ok) => {
      const o = ok.response.convertedObjects[0];
      return { ...ok, response: { ...ok.response, convertedObjects: [{ ...o, metadata: { name: 'a', namespace: 'default', uid: 'uid-a', labels: { app: 'y', tier: 'db' }, annotations: { note: 'converted' } } }] } };
    });
    const [out] = await viaUrl('/labels').convert([v1()], 'example.com/v2');
    assert.deepEqual(out?.metadata, { name: 'a', namespace: 'default', uid: 'uid-a', resourceVersion: '7', labels: { app: 'y', tier: 'db' }, annotations: { note: 'converted' } });
    hook.tampers.set('/bad-label', (_r, ok) => {
      const o = ok.response.convertedObjects[0];
      return { ...ok, response: { ...ok.response, convertedObjects: [{ ...o, metadata: { ...o.metadata, labels: { 'bad key!': 'x' } } }] } };
    });
    const err = (await viaUrl('/bad-label')
      .convert([v1()], 'example.com/v2')
      .catch((e: unknown) => e)) as ConversionError;
    assert.match(err.detail, /^conversion for example\.com\/v1, Kind=Endpoint returned invalid metadata in object at index 1: metadata\.labels: Invalid value: "bad key!": name part must consist of/);
  });

  it('says what went wrong when the webhook is down', async () => {
    const port = await closedPort();
    const c = buildConverter(crd({ url: `https://127.0.0.1:${port}/convert`, caBundle: hook.caBundle }), noStorage);
    await assert.rejects(c.convert([v1()], 'example.com/v2'), {
      message: `${failedPrefix} failed: conversion webhook for /, Kind= failed: Post "https://127.0.0.1:${port}/convert?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
  });

  it('gives up at the webhook timeout (30 s unless shortened)', async () => {
    hook.tampers.set('/hang', () => 'hang');
    const c = buildConverter(crd({ url: hook.url('/hang'), caBundle: hook.caBundle }), { ...noStorage, webhookTimeoutMs: 300 });
    await assert.rejects(c.convert([v1()], 'example.com/v2'), {
      message: `${failedPrefix} failed: conversion webhook for /, Kind= failed: Post "${hook.url('/hang')}?timeout=1s": context deadline exceeded`,
    });
    c.close?.();
  });

  it('refuses a server its caBundle does not trust', async () => {
    const c = buildConverter(crd({ url: hook.url('/untrusted') }), noStorage);
    await assert.rejects(c.convert([v1()], 'example.com/v2'), {
      message: `${failedPrefix} failed: conversion webhook for /, Kind= failed: Post "${hook.url('/untrusted')}?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    });
  });

  it('speaks v1beta1 when only v1beta1 is listed (its uid unchecked), and refuses when no version is supported', async () => {
    hook.tampers.set('/beta', (_r, ok) => ({ ...ok, response: { ...ok.response, uid: '' } }));
    const [out] = await viaUrl('/beta', ['v1beta1']).convert([v1()], 'example.com/v2');
    assert.equal((out?.spec as Json).address, 'db.local:5432');
    assert.equal(hook.reviews('/beta')[0]?.apiVersion, 'apiextensions.k8s.io/v1beta1');
    await assert.rejects(viaUrl('/none', ['v2']).convert([v1()], 'example.com/v2'), { message: `${failedPrefix} failed: no supported conversion review versions` });
    assert.equal(hook.reviews('/none').length, 0);
    hook.tampers.set('/wrong-type', (_r, ok) => ({ ...ok, apiVersion: 'apiextensions.k8s.io/v1beta1' }));
    await assert.rejects(viaUrl('/wrong-type').convert([v1()], 'example.com/v2'), {
      message: `${failedPrefix} failed: conversion webhook for /, Kind= failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview`,
    });
  });

  it('times each conversion in apiserver_crd_conversion_webhook_duration_seconds and counts webhook calls', async () => {
    const registry = new Registry();
    const c = buildConverter(crd({ url: hook.url('/metrics'), caBundle: hook.caBundle }), { ...noStorage, metrics: registry });
    await c.convert([v1()], 'example.com/v2');
    hook.tampers.set('/metrics', (_r, ok) => ({ ...ok, response: { ...ok.response, uid: 'x' } }));
    await c.convert([v1()], 'example.com/v2').catch(() => undefined);
    const text = await registry.metrics();
    assert.match(text, /apiserver_crd_conversion_webhook_duration_seconds_count\{crd_name="endpoints\.example\.com",from_version="v1",succeeded="true",to_version="v2"\} 1/);
    assert.match(text, /apiserver_crd_conversion_webhook_duration_seconds_count\{crd_name="endpoints\.example\.com",from_version="v1",succeeded="false",to_version="v2"\} 1/);
    assert.match(text, /apiserver_conversion_webhook_request_total\{failure_type="",result="success"\} 1/);
    assert.match(text, /apiserver_conversion_webhook_request_total\{failure_type="conversion_webhook_call_failure",result="failure"\} 1/);
    c.close?.();
  });
});
