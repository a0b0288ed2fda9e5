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

async function apply(manager: string, spec: Record<string, unknown>, force = false): Promise<{ status: number; body: any; text: string }> {
  const body = JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Gateway', metadata: { name: 'gw' }, spec });
  const res = await fx.request('PATCH', `${path}/gw?fieldManager=${manager}${force ? '&force=true' : ''}`, { rawBody: body, headers: { 'content-type': 'application/apply-patch+yaml' } });
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
});
