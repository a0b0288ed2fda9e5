import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { ApiInstaller } from '../../endpoints/installer.js';
import { createLogger } from '../../observability/logging.js';
import type { Storage } from '../../storage/interface.js';
import { buildCrdServing, deprecationWarningOf, storageVersionHash } from './build.js';
import { crdFacts } from './crd.js';

const unused = new Proxy({} as Storage, {
  get: (_t, p) => (p === 'forResource' ? undefined : () => Promise.reject(new Error(`storage.${String(p)} called`))),
});

function crd(conditions: Array<[string, string]>, versions: unknown[]): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.ex.io', uid: 'u1', generation: 1 },
    spec: { group: 'ex.io', scope: 'Cluster', names: { plural: 'foos', kind: 'Foo' }, versions },
    status: { conditions: conditions.map(([type, status]) => ({ type, status })), storedVersions: ['v2'] },
  };
}

const version = (name: string, storage: boolean, extra: Record<string, unknown> = {}) => ({ name, served: true, storage, schema: { openAPIV3Schema: { type: 'object' } }, ...extra });

function serve(obj: KubeObject): ApiInstaller {
  const installer = new ApiInstaller([]);
  const f = crdFacts(obj);
  const serving = buildCrdServing(obj, f, { terminating: false, recordStoredVersion: async () => undefined }, { storage: unused, storageOf: () => undefined, log: createLogger(0, true) });
  installer.setDynamicResource(serving.group, serving.plural, serving.versions);
  return installer;
}

describe('CRD serving build', () => {
  it('routes a CRD whose names are accepted, but lists it in discovery only once Established', () => {
    const accepted = serve(crd([['NamesAccepted', 'True']], [version('v2', true)]));
    assert.ok(accepted.lookup('ex.io', 'v2', 'foos', ''));
    assert.equal(accepted.groups().some((g) => g.group === 'ex.io'), false);
    const established = serve(crd([['NamesAccepted', 'True'], ['Established', 'True']], [version('v2', true)]));
    assert.deepEqual(established.groups().find((g) => g.group === 'ex.io')?.versions.map((v) => v.version), ['v2']);
  });

  it('serves served versions only, cluster-scoped, with kube’s defaults for names and no Protobuf', () => {
    const installer = serve(crd([['Established', 'True']], [version('v1', false, { served: false }), version('v2', true), version('v3alpha1', false)]));
    assert.equal(installer.lookup('ex.io', 'v1', 'foos', ''), undefined);
    const scope = installer.lookup('ex.io', 'v3alpha1', 'foos', '');
    assert.ok(scope);
    assert.equal(scope.namespaced, false);
    assert.equal(scope.protobuf, false);
    assert.equal(scope.listKind, 'FooList');
    assert.deepEqual(scope.stored, { apiVersion: 'ex.io/v3alpha1', kind: 'Foo' });
    assert.equal(scope.conversion, undefined);
    assert.equal(installer.lookup('ex.io', 'v2', 'foos', 'status'), undefined);
    const group = installer.groups().find((g) => g.group === 'ex.io');
    assert.equal(group?.preferredVersion, 'v2');
    const info = group?.versions[0]?.resources[0]?.info;
    assert.equal(info?.singularName, 'foo');
    assert.equal(info?.storageVersionHash, storageVersionHash('ex.io', 'v2', 'Foo'));
  });

  it('words the deprecation warning as kube does', () => {
    const f = crdFacts(crd([], [version('v1', true, { deprecated: true }), version('v2', false, { deprecated: true, deprecationWarning: 'use v3' })]));
    assert.equal(deprecationWarningOf('ex.io', f.versions[0]!, 'Foo'), 'ex.io/v1 Foo is deprecated');
    assert.equal(deprecationWarningOf('ex.io', f.versions[1]!, 'Foo'), 'use v3');
    assert.equal(storageVersionHash('', 'v1', 'ConfigMap'), 'qFsyl6wFWjQ=');
  });
});
