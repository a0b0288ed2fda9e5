/**
 * Every resource added for Kubernetes 1.33 created through its store against a real etcd: a
 * minimal object (kube's test/integration/etcd stubs), stored under kube's key in kube's storage
 * version, read back with kube's defaults, and, for resources served in several versions, read
 * back in each of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEtcd } from '../../test/support/etcd.js';
import { resourceStubs, type ResourceStub } from './builtin-stubs.js';
import { deleteOptions, statusOf } from './core/shared/testing.js';
import { contextFor, createVia, getVia, setupModule, versionOf } from './shared/testing.js';

const fx = useEtcd();

/** Asserts expected is contained in actual (objects by key, arrays element-wise and of equal length). */
function assertSubset(actual: unknown, expected: unknown, path = ''): void {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.ok(actual !== null && typeof actual === 'object' && !Array.isArray(actual), `${path}: expected an object, got ${JSON.stringify(actual)}`);
    for (const [k, v] of Object.entries(expected)) assertSubset((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual) && actual.length === expected.length, `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    expected.forEach((e, i) => assertSubset((actual as unknown[])[i], e, `${path}[${i}]`));
    return;
  }
  assert.deepEqual(actual, expected, path);
}

describe('built-in resources of Kubernetes 1.33 (etcd)', () => {
  for (const [resource, c] of Object.entries(resourceStubs)) {
    it(`${resource}: stored under ${c.key} as ${c.storedAs}, read back with kube's defaults in every version`, async () => {
      const { regs, storage } = setupModule(fx, c.module);
      const reg = c.version ? versionOf(regs, c.version) : (regs[0] as (typeof regs)[number]);
      const created = await createVia(reg, structuredClone(c.obj));
      assert.equal(created.metadata.name, c.obj.metadata.name);
      const raw = await storage.get(c.key, { resourceVersion: '' });
      assert.equal(raw.apiVersion, c.storedAs);
      for (const [version, expected] of Object.entries(c.expect)) {
        const read = await getVia(versionOf(regs, version), c.obj.metadata.name ?? '');
        assertSubset(read, expected, `${resource} ${version}`);
      }
    });
  }

  it('stores a CRD in kube\'s v1beta1 form: spec.version, a hoisted schema and printer columns spelled JSONPath', async () => {
    const c = resourceStubs.customresourcedefinitions as ResourceStub;
    const { regs, storage } = setupModule(fx, c.module);
    await createVia(versionOf(regs, 'v1'), structuredClone(c.obj));
    const raw = await storage.get(c.key, { resourceVersion: '' });
    const spec = raw.spec as Record<string, any>;
    assert.equal(spec.version, 'v1alpha1');
    assert.deepEqual(spec.validation, { openAPIV3Schema: { type: 'object' } });
    assert.deepEqual(spec.additionalPrinterColumns, [{ name: 'Age', type: 'date', JSONPath: '.metadata.creationTimestamp' }]);
    assert.equal(spec.preserveUnknownFields, false);
    assert.deepEqual(spec.versions, [{ name: 'v1alpha1', storage: true, served: true }]);
  });

  it('refuses to delete a system priority class', async () => {
    const { regs } = setupModule(fx, (resourceStubs.priorityclasses as ResourceStub).module);
    const reg = versionOf(regs, 'v1');
    await createVia(reg, { metadata: { name: 'system-cluster-critical' }, value: 2000000000 });
    const refused = await statusOf(reg.main.delete?.(contextFor(reg, 'DELETE'), 'system-cluster-critical', deleteOptions()) ?? Promise.resolve());
    assert.equal(refused.code, 403);
    assert.equal(refused.message, 'priorityclasses.scheduling.k8s.io "system-cluster-critical" is forbidden: this is a system priority class and cannot be deleted');
  });
});
