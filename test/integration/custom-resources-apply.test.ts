/**
 * Server-side apply of custom resources against real etcd, with the merge semantics the CRD's
 * schema declares: a list-type map merges two managers' entries by their keys (and a conflict on a
 * shared key names kube's path), a set merges values, an atomic list and an atomic map are replaced
 * whole by their owner, and the schema's defaults fill what an apply leaves out.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createEstablishedCrd } from '../support/crds.js';
import { useServer } from '../support/server.js';

const fx = useServer();
const group = 'apply.example.com';
const path = `/apis/${group}/v1/namespaces/default/gateways`;

function crd(): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gateways.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'gateways', singular: 'gateway', kind: 'Gateway' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    listeners: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' }, protocol: { type: 'string', default: 'HTTP' } } },
                    },
                    hostnames: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                    addresses: { type: 'array', items: { type: 'string' } },
                    selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    nullableExtra: { type: 'object', nullable: true, 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

async function apply(manager: string, spec: Record<string, unknown>, force = false, name = 'gw'): Promise<{ status: number; body: any; text: string }> {
  const body = JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Gateway', metadata: { name }, spec });
  const res = await fx.request('PATCH', `${path}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`, { rawBody: body, headers: { 'content-type': 'application/apply-patch+yaml' } });
  return { status: res.status, body: res.status < 300 ? res.json() : res.json(), text: res.text };
}

describe('server-side apply of custom resources follows the schema\'s list and map types', () => {
  before(async () => {
    await createEstablishedCrd(fx, crd());
  });

  it('merges map lists by key and sets by value, replaces atomic lists and maps, and reports conflicts by key', async () => {
    let r = await apply('alice', { listeners: [{ name: 'http', port: 80 }], hostnames: ['a.example.com'], addresses: ['10.0.0.1'], selector: { app: 'gw' } });
    assert.equal(r.status, 201, r.text);
    r = await apply('bob', { listeners: [{ name: 'https', port: 443, protocol: 'HTTPS' }], hostnames: ['b.example.com'] });
    assert.equal(r.status, 200, r.text);
    const spec = r.body.spec;
    assert.deepEqual(spec.listeners, [{ name: 'http', port: 80, protocol: 'HTTP' }, { name: 'https', port: 443, protocol: 'HTTPS' }]);
    assert.deepEqual([...spec.hostnames].sort(), ['a.example.com', 'b.example.com']);
    assert.deepEqual(spec.addresses, ['10.0.0.1']);

    // A second manager setting alice's listener's port conflicts on that entry, named by its key.
    const conflict = await apply('bob', { listeners: [{ name: 'http', port: 8080 }, { name: 'https', port: 443, protocol: 'HTTPS' }], hostnames: ['b.example.com'] });
    assert.equal(conflict.status, 409, conflict.text);
    assert.match(conflict.body.message, /Apply failed with 1 conflict: conflict with "alice": \.spec\.listeners\[name="http"\]\.port/);

    // Atomic list and map: owned whole; forcing takes them whole.
    const forced = await apply('bob', { listeners: [{ name: 'https', port: 443, protocol: 'HTTPS' }], hostnames: ['b.example.com'], addresses: ['10.0.0.2'], selector: { tier: 'edge' } }, true);
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual(forced.body.spec.addresses, ['10.0.0.2']);
    assert.deepEqual(forced.body.spec.selector, { tier: 'edge' });
    // alice still owns her listener and hostname.
    assert.deepEqual(forced.body.spec.listeners.map((l: any) => l.name), ['http', 'https']);
    assert.ok(forced.body.spec.hostnames.includes('a.example.com'));

    // alice stops applying her listener: her entry goes, bob's stays.
    const dropped = await apply('alice', { hostnames: ['a.example.com'] });
    assert.equal(dropped.status, 200, dropped.text);
    assert.deepEqual(dropped.body.spec.listeners.map((l: any) => l.name), ['https']);
  });

  // Found by the issue 18 body fuzzer (seed 724168327). kube 1.33's structured-merge-diff (v4.6)
  // removes a map entry no manager owns as a member, even when another manager owns a field inside
  // it, and leaves a map its removals emptied as null (structured-merge-diff issue #305). The
  // schema then refuses the null unless the field is nullable: kube answers 422, and nothing changes.
  it('refuses an apply whose removals leave a non-nullable object null, as kube 1.33 does, and changes nothing', async () => {
    const name = 'emptied';
    let r = await apply('alice', { extra: { a: { x: '1' } }, nullableExtra: { a: { x: '1' } } }, false, name);
    assert.equal(r.status, 201, r.text);
    // bob adds a field inside alice's entries: he owns spec.extra.a.y, not the entry spec.extra.a.
    const patched = await fx.request('PATCH', `${path}/${name}?fieldManager=bob`, {
      rawBody: JSON.stringify({ spec: { extra: { a: { y: '2' } }, nullableExtra: { a: { y: '2' } } } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.text);
    const before = patched.json();

    // alice applies without her entries: both maps are emptied, and extra cannot be null.
    r = await apply('alice', { listeners: [{ name: 'l', port: 1 }] }, true, name);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.message, `Gateway.${group} "${name}" is invalid: spec.extra: Invalid value: "null": spec.extra in body must be of type object: "null"`);
    const after = (await fx.request('GET', `${path}/${name}`)).json();
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.deepEqual(after.spec, { extra: { a: { x: '1', y: '2' } }, nullableExtra: { a: { x: '1', y: '2' } } });

    // Once bob owns an entry of extra (b, added whole), extra is not emptied; the nullable map is left null.
    const cleared = await fx.request('PATCH', `${path}/${name}?fieldManager=bob`, {
      rawBody: JSON.stringify({ spec: { extra: { b: { k: 'v' } } } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(cleared.status, 200, cleared.text);
    r = await apply('alice', { listeners: [{ name: 'l', port: 1 }] }, true, name);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.spec, { extra: { b: { k: 'v' } }, listeners: [{ name: 'l', port: 1, protocol: 'HTTP' }], nullableExtra: null });
  });
});
