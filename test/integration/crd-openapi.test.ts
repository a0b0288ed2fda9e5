/**
 * CRD schemas in /openapi/v2 and /openapi/v3 against real etcd: once a CRD is Established its
 * served versions appear (v3 index with a content hash, the group version's document with the
 * kind, list and routes; the v2 document in JSON and gnostic protobuf) within a second, and they go
 * when the CRD goes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer();
const crdName = 'crontabs.stable.example.com';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: crdName },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { kind: 'CronTab', plural: 'crontabs', singular: 'crontab', shortNames: ['ct'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'CronTab runs a command on a schedule.',
            properties: {
              spec: {
                type: 'object',
                description: 'CronTabSpec is the desired schedule.',
                properties: {
                  cronSpec: { type: 'string', description: 'The cron schedule, in cron format.' },
                  image: { type: 'string', nullable: true },
                },
              },
            },
          },
        },
      },
      { name: 'v1beta1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
    ],
  },
};

async function until<T>(what: string, ms: number, f: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const index = async (): Promise<Record<string, { serverRelativeURL: string }>> => (await fx.request('GET', '/openapi/v3')).json().paths;

describe('CRD OpenAPI', () => {
  it('publishes an Established CRD in /openapi/v3 and /openapi/v2 within a second, and removes it with the CRD', async () => {
    const created = await fx.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
    assert.equal(created.status, 201, created.text);
    // Established by the CRD controllers.
    await until('Established', 5000, async () => {
      const current = (await fx.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`)).json();
      const conditions: { type: string; status: string }[] = current.status?.conditions ?? [];
      return conditions.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    });
    const establishedAt = Date.now();

    const entry = await until('the group version in /openapi/v3', 1000, async () => (await index())['apis/stable.example.com/v1']);
    assert.ok(Date.now() - establishedAt < 1000);
    assert.equal((await index())['apis/stable.example.com/v1beta1'], undefined, 'an unserved version is not published');
    assert.match(entry.serverRelativeURL, /^\/openapi\/v3\/apis\/stable\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
    const v3 = await fx.request('GET', entry.serverRelativeURL);
    assert.equal(v3.status, 200);
    assert.equal(v3.headers['cache-control'], 'public, immutable');
    const doc = v3.json();
    const kind = doc.components.schemas['com.example.stable.v1.CronTab'];
    assert.equal(kind.properties.spec.properties.cronSpec.description, 'The cron schedule, in cron format.');
    assert.deepEqual(kind.properties.spec.properties.image, { nullable: true, type: 'string' });
    assert.deepEqual(kind['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    assert.ok(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    assert.equal(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs'].get.operationId, 'listStableExampleComV1NamespacedCronTab');
    assert.ok(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status']);

    const v2 = (await fx.request('GET', '/openapi/v2', { headers: { accept: 'application/json' } })).json();
    assert.deepEqual(v2.definitions['com.example.stable.v1.CronTab'].properties.spec.properties.image, {});
    assert.equal(v2.paths['/apis/stable.example.com/v1/crontabs'].get.operationId, 'listStableExampleComV1CronTabForAllNamespaces');
    assert.ok(v2.parameters['namespace-vgWSWtn3']);
    const pb = await fx.request('GET', '/openapi/v2', { headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    assert.equal(pb.status, 200);
    assert.ok(pb.body.includes(Buffer.from('com.example.stable.v1.CronTab')));

    const deleted = await fx.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`);
    assert.ok(deleted.status === 200 || deleted.status === 202, deleted.text);
    await until('the group version to leave /openapi/v3', 10_000, async () => ((await index())['apis/stable.example.com/v1'] ? undefined : true));
    assert.equal((await fx.request('GET', '/openapi/v3/apis/stable.example.com/v1')).status, 404);
    const after = (await fx.request('GET', '/openapi/v2')).json();
    assert.equal(after.definitions['com.example.stable.v1.CronTab'], undefined);
    assert.equal(after.paths['/apis/stable.example.com/v1/crontabs'], undefined);
  });
});
