import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { deducedTypeResolver } from '../../fieldmanager/managed-fields.js';
import { beforeCreate, beforeUpdate } from '../../registry/generic/object-meta.js';
import { internalContext } from '../../request/context.js';
import type { VersionSchema } from '../interface.js';
import { customResourceSelectableFields, customResourceStatusStrategy, customResourceStrategy, type CustomResourceStrategyOptions } from './strategy.js';

const schema: VersionSchema = {
  schema: { type: 'object' },
  prune: () => [],
  applyDefaults: () => undefined,
  validate: (obj) => ((obj.spec as { bad?: boolean } | undefined)?.bad ? [{ type: 'FieldValueInvalid', field: 'spec.bad', badValue: true, detail: 'no' }] : []),
  typeResolver: deducedTypeResolver(),
};

function options(hasStatus: boolean): CustomResourceStrategyOptions {
  return { group: 'ex.io', version: 'v1', kind: 'Foo', namespaced: true, schema, hasStatus, selectableFields: [], scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } };
}

const ctx = internalContext({ verb: 'create', group: 'ex.io', resource: 'foos', namespace: 'default' });
const kind = { group: 'ex.io', kind: 'Foo' };

function created(hasStatus: boolean, body: Record<string, unknown>): KubeObject {
  const obj = { apiVersion: 'ex.io/v1', kind: 'Foo', metadata: { name: 'a' }, ...body } as KubeObject;
  beforeCreate(customResourceStrategy(options(hasStatus)), kind, ctx, obj, 'default');
  obj.metadata.resourceVersion = '5';
  return obj;
}

function updated(hasStatus: boolean, old: KubeObject, change: (o: KubeObject) => void, status = false): KubeObject {
  const obj = structuredClone(old);
  change(obj);
  const strategy = customResourceStrategy(options(hasStatus));
  const sub = status ? customResourceStatusStrategy(options(hasStatus)) : undefined;
  beforeUpdate(strategy, kind, ctx, obj, old, 'default', sub?.prepareForUpdate.bind(sub), sub?.validateUpdate.bind(sub));
  return obj;
}

describe('custom resource strategy', () => {
  it('starts generation at 1 and drops status on create only with the status subresource', () => {
    assert.equal(created(true, { spec: {}, status: { x: 1 } }).status, undefined);
    const plain = created(false, { spec: {}, status: { x: 1 } });
    assert.deepEqual(plain.status, { x: 1 });
    assert.equal(plain.metadata.generation, 1);
  });

  it('bumps generation once per change outside metadata; status counts only without the subresource', () => {
    const old = created(false, { spec: { a: 1 } });
    assert.equal(updated(false, old, (o) => (o.status = { x: 2 })).metadata.generation, 2);
    assert.equal(updated(false, old, (o) => ((o.spec = { a: 2 }), (o.status = { x: 2 }))).metadata.generation, 2);
    assert.equal(updated(false, old, (o) => (o.metadata.labels = { l: 'x' })).metadata.generation, 1);
    const withStatus = created(true, { spec: { a: 1 } });
    const kept = updated(true, withStatus, (o) => (o.status = { x: 2 }));
    assert.equal(kept.status, undefined);
    assert.equal(kept.metadata.generation, 1);
  });

  it('status writes change status only, keeping labels and spec', () => {
    const old = created(true, { spec: { a: 1 } });
    const next = updated(true, old, (o) => ((o.spec = { a: 9 }), (o.status = { ready: true }), (o.metadata.labels = { x: 'y' })), true);
    assert.deepEqual(next.spec, { a: 1 });
    assert.deepEqual(next.status, { ready: true });
    assert.equal(next.metadata.labels, undefined);
    assert.equal(next.metadata.generation, 1);
  });

  it('validates kind, apiVersion, the schema and the scale fields with kube’s messages', () => {
    assert.throws(() => created(false, { kind: 'Bar', spec: {} }), /kind: Invalid value: "Bar": must be Foo/);
    assert.throws(() => created(false, { apiVersion: 'ex.io/v2', spec: {} }), /apiVersion: Invalid value: "ex.io\/v2": must be ex.io\/v1/);
    assert.throws(() => created(false, { spec: { bad: true } }), /spec.bad: Invalid value: true: no/);
    assert.throws(() => created(false, { spec: { replicas: 'x' } }), /\.spec\.replicas: Invalid value: 0: \.spec\.replicas accessor error: x is of the type string, expected int64/);
    assert.throws(() => created(false, { status: { replicas: 2147483648 } }), /should be less than or equal to 2147483647/);
  });

  it('reads selectable fields with their JSONPaths', () => {
    const fields = customResourceSelectableFields(['.spec.color', '.spec.size', '.spec.on']);
    assert.deepEqual(fields.extra, ['spec.color', 'spec.size', 'spec.on']);
    assert.deepEqual(fields.values?.({ metadata: {}, spec: { color: 'red', size: 3, on: false } }), { 'spec.color': 'red', 'spec.size': '3', 'spec.on': 'false' });
  });
});
