import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorsMessage, required } from '../../../validation/field-error.js';
import { findCondition } from '../conditions.js';
import type { StructuralViolations } from '../interface.js';
import { crd, FakeCrds, until } from '../testing.js';
import { startNonStructuralSchemaController } from './controller.js';

/**
 * A stand-in check (the validation side's structuralSchemaErrors is the real one): a property
 * without type is a violation, as kube's "must not be empty for specified object fields"; a $ref
 * cannot be checked at all.
 */
const untypedProperties: StructuralViolations = (v1: KubeObject) => {
  const versions = (v1.spec as { versions: { schema?: { openAPIV3Schema?: { properties?: Record<string, { type?: string; $ref?: string }> } } }[] }).versions;
  if (versions.some((v) => Object.values(v.schema?.openAPIV3Schema?.properties ?? {}).some((p) => p.$ref))) {
    return { reason: 'StructuralError', message: "failed to check validation schema for version v1: OpenAPIV3Schema '$ref' is not supported" };
  }
  const errs = versions.flatMap((v, i) =>
    Object.entries(v.schema?.openAPIV3Schema?.properties ?? {})
      .filter(([, p]) => !p.type)
      .map(([k]) => required(`spec.versions[${i}].schema.openAPIV3Schema.properties[${k}].type`, 'must not be empty for specified object fields')),
  );
  return errs.length ? { reason: 'Violations', message: fieldErrorsMessage(errs) } : undefined;
};

function withSchema(c: KubeObject, properties: Record<string, unknown>, generation: number): KubeObject {
  (c.spec as Record<string, unknown>).validation = { openAPIV3Schema: { type: 'object', properties } };
  c.metadata.generation = generation;
  return c;
}

describe('NonStructuralSchema condition controller', () => {
  it('sets Violations with the aggregated messages over the v1 paths, and removes it once structural', async () => {
    const store = new FakeCrds();
    const running = startNonStructuralSchemaController(store.deps(), untypedProperties);
    try {
      // The stored v1beta1 form with a top-level schema: paths name every v1 version.
      const c = withSchema(crd('example.com', { plural: 'widgets', kind: 'Widget' }), { a: {}, b: { type: 'string' } }, 1);
      (c.spec as { versions: unknown[] }).versions.push({ name: 'v2', served: true, storage: false });
      store.put(c);
      await until('the condition', () => findCondition(store.get('widgets.example.com')!, 'NonStructuralSchema') !== undefined);
      const cond = findCondition(store.get('widgets.example.com')!, 'NonStructuralSchema');
      assert.deepEqual([cond?.status, cond?.reason], ['True', 'Violations']);
      assert.equal(
        cond?.message,
        '[spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields, spec.versions[1].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields]',
      );
      // Same generation again: judged once.
      const writes = store.writes.length;
      store.put(store.get('widgets.example.com')!);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(store.writes.length, writes);
      store.put(withSchema(structuredClone(store.get('widgets.example.com')!), { a: { type: 'integer' } }, 2));
      await until('the condition removed', () => findCondition(store.get('widgets.example.com')!, 'NonStructuralSchema') === undefined);
    } finally {
      running.stop();
    }
  });

  it('a schema that cannot be checked leaves the condition Unknown with StructuralError, as kube does', async () => {
    const store = new FakeCrds();
    const running = startNonStructuralSchemaController(store.deps(), untypedProperties);
    try {
      store.put(withSchema(crd('example.com', { plural: 'widgets', kind: 'Widget' }), { a: { $ref: '#/x' } }, 1));
      await until('the condition', () => findCondition(store.get('widgets.example.com')!, 'NonStructuralSchema') !== undefined);
      const cond = findCondition(store.get('widgets.example.com')!, 'NonStructuralSchema');
      assert.deepEqual([cond?.status, cond?.reason, cond?.message], ['Unknown', 'StructuralError', "failed to check validation schema for version v1: OpenAPIV3Schema '$ref' is not supported"]);
    } finally {
      running.stop();
    }
  });

  it('writes nothing for a structural CRD', async () => {
    const store = new FakeCrds();
    const running = startNonStructuralSchemaController(store.deps(), untypedProperties);
    try {
      store.put(withSchema(crd('example.com', { plural: 'widgets', kind: 'Widget' }), { a: { type: 'string' } }, 1));
      await new Promise((r) => setTimeout(r, 30));
      assert.equal(store.writes.length, 0);
    } finally {
      running.stop();
    }
  });
});
