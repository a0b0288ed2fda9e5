import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { viewCrd } from './crd-view.js';
import { cronTabCrd } from './testdata.js';
import { buildCrdSwagger, sharedParameterNames } from './v2-builder.js';
import { buildCrdOpenApiV3, mergeOpenApiV3 } from './v3-builder.js';

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';
type Json = Record<string, any>;

const library = (name: string): unknown =>
  ({
    [`${meta}.ObjectMeta`]: { type: 'object', properties: { managedFields: { items: { $ref: `#/components/schemas/${meta}.ManagedFieldsEntry` } } } },
    [`${meta}.ManagedFieldsEntry`]: { type: 'object' },
    [`${meta}.ListMeta`]: { type: 'object' },
    [`${meta}.Status`]: { type: 'object' },
    [`${meta}.Patch`]: { type: 'object' },
    [`${meta}.DeleteOptions`]: { type: 'object' },
    'io.k8s.api.autoscaling.v1.Scale': { type: 'object' },
    'io.k8s.api.apps.v1.Deployment': { type: 'object' },
  })[name];

describe('CRD OpenAPI v2 fragment', () => {
  const f = buildCrdSwagger(viewCrd(cronTabCrd())) as { paths: Json; definitions: Json };

  it('names the kind and list definitions with the reversed group and the group-version-kind', () => {
    assert.deepEqual(Object.keys(f.definitions), ['com.example.stable.v1.CronTab', 'com.example.stable.v1.CronTabList']);
    const kind = f.definitions['com.example.stable.v1.CronTab'];
    assert.deepEqual(kind['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    assert.equal(kind.description, 'CronTab runs a command on a schedule.');
    assert.deepEqual(kind.properties.metadata.$ref, `#/definitions/${meta}.ObjectMeta`);
    assert.match(kind.properties.apiVersion.description, /^APIVersion defines the versioned schema/);
    assert.match(kind.properties.kind.description, /^Kind is a string value/);
    const list = f.definitions['com.example.stable.v1.CronTabList'];
    assert.deepEqual(list.properties.items.items, { $ref: '#/definitions/com.example.stable.v1.CronTab' });
    assert.deepEqual(list['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTabList', version: 'v1' }]);
    assert.equal(list.properties.metadata.$ref, `#/definitions/${meta}.ListMeta`);
  });

  it('converts the schema for v2: defaults pruned, nullable untyped, int-or-string without anyOf', () => {
    const spec = f.definitions['com.example.stable.v1.CronTab'].properties.spec;
    assert.deepEqual(spec.properties.replicas, { format: 'int32', minimum: 1, type: 'integer' });
    assert.deepEqual(spec.properties.note, {});
    assert.deepEqual(spec.required, ['cronSpec']);
    assert.deepEqual(spec.properties.port, { description: 'A port name or number.', 'x-kubernetes-int-or-string': true });
    assert.deepEqual(spec.properties.choice, { type: 'string' });
    // An embedded resource that keeps unknown fields gets no type meta in v2 (kubectl would refuse the unknown ones).
    assert.deepEqual(spec.properties.template, { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(spec['x-kubernetes-validations'], [{ message: 'too many', rule: 'self.replicas <= 10' }]);
  });

  it('describes every route with kube operation ids, actions and shared parameters', () => {
    const root = '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs';
    assert.deepEqual(Object.keys(f.paths), ['/apis/stable.example.com/v1/crontabs', root, `${root}/{name}`, `${root}/{name}/scale`, `${root}/{name}/status`]);
    const ids = Object.values(f.paths).flatMap((item: Json) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m) => `${m} ${item[m].operationId} ${item[m]['x-kubernetes-action']}`));
    assert.deepEqual(ids.sort(), [
      'delete deleteStableExampleComV1CollectionNamespacedCronTab deletecollection',
      'delete deleteStableExampleComV1NamespacedCronTab delete',
      'get listStableExampleComV1CronTabForAllNamespaces list',
      'get listStableExampleComV1NamespacedCronTab list',
      'get readStableExampleComV1NamespacedCronTab get',
      'get readStableExampleComV1NamespacedCronTabScale get',
      'get readStableExampleComV1NamespacedCronTabStatus get',
      'patch patchStableExampleComV1NamespacedCronTab patch',
      'patch patchStableExampleComV1NamespacedCronTabScale patch',
      'patch patchStableExampleComV1NamespacedCronTabStatus patch',
      'post createStableExampleComV1NamespacedCronTab post',
      'put replaceStableExampleComV1NamespacedCronTab put',
      'put replaceStableExampleComV1NamespacedCronTabScale put',
      'put replaceStableExampleComV1NamespacedCronTabStatus put',
    ]);
    const named = f.paths[`${root}/{name}`];
    assert.deepEqual(named.parameters, [{ in: 'path', name: 'name', required: true, type: 'string', uniqueItems: true }, { $ref: '#/parameters/namespace-vgWSWtn3' }, { $ref: '#/parameters/pretty-tJGM1-ng' }]);
    assert.deepEqual(named.patch.consumes, ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    assert.deepEqual(named.patch.parameters.map((p: Json) => p.$ref ?? p.name), ['#/parameters/body-78PwaGsr', 'dryRun', '#/parameters/fieldManager-7c6nTn1T', 'fieldValidation', '#/parameters/force-tOGGb0Yi']);
    assert.deepEqual(named.put.parameters[0], { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/com.example.stable.v1.CronTab' } });
    assert.deepEqual(Object.keys(named.put.responses), ['200', '201', '401']);
    assert.deepEqual(Object.keys(f.paths[root].post.responses), ['200', '201', '202', '401']);
    assert.equal(named.delete.parameters[0].$ref, '#/parameters/body-2Y1dVQaQ');
    assert.equal(f.paths[`${root}/{name}/scale`].get.responses['200'].schema.$ref, '#/definitions/io.k8s.api.autoscaling.v1.Scale');
    // A path with one operation carries all its parameters itself.
    const all = f.paths['/apis/stable.example.com/v1/crontabs'];
    assert.equal(all.get.parameters, undefined);
    assert.equal(all.parameters.length, 11);
    assert.deepEqual(all.get.tags, ['stableExampleCom_v1']);
    assert.equal(all.get.description, 'list objects of kind CronTab');
  });

  it('refers only to shared parameters the built-in document defines', () => {
    const swagger = JSON.parse(readFileSync(new URL('../../../../api/gen/openapi/v2/swagger.json', import.meta.url), 'utf8')) as Json;
    for (const name of sharedParameterNames) assert.ok(swagger.parameters[name], name);
  });

  it('publishes only served versions, without subresource paths the version lacks', () => {
    const crd = cronTabCrd({
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
        { name: 'v2', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
    });
    const g = buildCrdSwagger(viewCrd(crd));
    assert.deepEqual(Object.keys(g.definitions), ['com.example.stable.v1.CronTab', 'com.example.stable.v1.CronTabList']);
    assert.ok(!Object.keys(g.paths).some((p) => p.endsWith('/status') || p.endsWith('/scale')));
  });

  it('publishes a bare object for a non-structural schema or one preserving unknown fields at the root', () => {
    const gvk = [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }];
    assert.deepEqual(buildCrdSwagger(viewCrd(cronTabCrd({ nonStructural: true }))).definitions['com.example.stable.v1.CronTab'], { type: 'object', 'x-kubernetes-group-version-kind': gvk });
    const preserving = cronTabCrd({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] });
    assert.deepEqual(buildCrdSwagger(viewCrd(preserving)).definitions['com.example.stable.v1.CronTab'], { type: 'object', 'x-kubernetes-group-version-kind': gvk });
    // v3 keeps the schema.
    const v3 = buildCrdOpenApiV3(viewCrd(preserving), viewCrd(preserving).versions[0]!, library);
    assert.equal((v3.components.schemas['com.example.stable.v1.CronTab'] as Json)['x-kubernetes-preserve-unknown-fields'], true);
  });

  it('gives a cluster-scoped kind its paths without namespaces', () => {
    const crd = cronTabCrd();
    (crd.spec as Json).scope = 'Cluster';
    const g = buildCrdSwagger(viewCrd(crd)) as { paths: Json };
    assert.deepEqual(Object.keys(g.paths), ['/apis/stable.example.com/v1/crontabs', '/apis/stable.example.com/v1/crontabs/{name}', '/apis/stable.example.com/v1/crontabs/{name}/scale', '/apis/stable.example.com/v1/crontabs/{name}/status']);
    assert.equal(g.paths['/apis/stable.example.com/v1/crontabs'].get.operationId, 'listStableExampleComV1CronTab');
    assert.equal(g.paths['/apis/stable.example.com/v1/crontabs/{name}'].get.operationId, 'readStableExampleComV1CronTab');
  });
});

describe('CRD OpenAPI v3 document', () => {
  const view = viewCrd(cronTabCrd());
  const doc = buildCrdOpenApiV3(view, view.versions[0]!, library) as unknown as { paths: Json; components: { schemas: Json } };

  it('keeps the schema faithful: nullable, anyOf, defaults, embedded type meta', () => {
    const spec = doc.components.schemas['com.example.stable.v1.CronTab'].properties.spec;
    assert.deepEqual(spec.properties.note, { nullable: true, type: 'string' });
    assert.deepEqual(spec.required, ['cronSpec', 'note']);
    assert.equal(spec.properties.replicas.default, 1);
    assert.deepEqual(spec.properties.port.anyOf, [{ type: 'integer' }, { type: 'string' }]);
    assert.deepEqual(spec.properties.choice.anyOf, [{ enum: ['a'] }, { enum: ['b'] }]);
    assert.deepEqual(Object.keys(spec.properties.template.properties), ['apiVersion', 'kind', 'metadata']);
    assert.deepEqual(spec.properties.template.required, ['kind', 'apiVersion']);
    assert.equal(spec.properties.template.properties.metadata.$ref, `#/components/schemas/${meta}.ObjectMeta`);
    assert.equal(doc.components.schemas['com.example.stable.v1.CronTab'].properties.metadata.$ref, `#/components/schemas/${meta}.ObjectMeta`);
  });

  it('includes every built-in schema the document reaches, and no other', () => {
    assert.deepEqual(Object.keys(doc.components.schemas), [
      'com.example.stable.v1.CronTab',
      'com.example.stable.v1.CronTabList',
      'io.k8s.api.autoscaling.v1.Scale',
      `${meta}.DeleteOptions`,
      `${meta}.ListMeta`,
      `${meta}.ManagedFieldsEntry`,
      `${meta}.ObjectMeta`,
      `${meta}.Patch`,
      `${meta}.Status`,
    ]);
  });

  it('writes v3 parameters, request bodies and responses per media type', () => {
    const named = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'];
    assert.deepEqual(named.parameters[0], { in: 'path', name: 'name', required: true, schema: { type: 'string', uniqueItems: true } });
    assert.deepEqual(Object.keys(named.patch.requestBody.content), ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
    assert.equal(named.patch.requestBody.required, true);
    assert.equal(named.delete.requestBody.required, undefined);
    assert.deepEqual(named.get.responses['200'], {
      content: { 'application/json': { schema: { $ref: '#/components/schemas/com.example.stable.v1.CronTab' } }, 'application/yaml': { schema: { $ref: '#/components/schemas/com.example.stable.v1.CronTab' } } },
      description: 'OK',
    });
    assert.deepEqual(named.get.parameters, [{ in: 'query', name: 'resourceVersion', schema: { type: 'string', uniqueItems: true } }]);
    assert.equal(named.get.operationId, 'readStableExampleComV1NamespacedCronTab');
  });

  it('merges the CRDs of one group version', () => {
    const other = viewCrd(cronTabCrd({ kind: 'Widget', plural: 'widgets' }));
    const merged = mergeOpenApiV3([buildCrdOpenApiV3(view, view.versions[0]!, library), buildCrdOpenApiV3(other, other.versions[0]!, library)]);
    assert.ok(merged.components.schemas['com.example.stable.v1.Widget']);
    assert.ok(merged.components.schemas['com.example.stable.v1.CronTab']);
    assert.ok(merged.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets']);
    assert.ok(merged.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs']);
    const keys = Object.keys(merged.paths);
    assert.deepEqual(keys, [...keys].sort());
  });
});
