import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import type { SharedInformers } from '../../../controllers/shared-informers.js';
import { collectParams, resolveParamKind } from './params.js';

const cm = (ns: string, name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name, labels } }) as KubeObject;
const objects = [cm('a', 'one', { use: 'yes' }), cm('a', 'two', { use: 'no' }), cm('b', 'one', { use: 'yes' })];
const informer = {
  list: () => objects.values(),
  get: (k: string) => objects.find((o) => `${o.metadata.namespace}/${o.metadata.name}` === k),
  hasSynced: () => true,
  synced: Promise.resolve(),
} as unknown as Informer;
const informers = { get: () => informer } as unknown as SharedInformers;
const configMaps = resolveParamKind('v1', 'ConfigMap', informers)!;

describe('params', () => {
  it('resolves built-in kinds to their resource and scope', () => {
    assert.deepEqual(configMaps, { group: '', version: 'v1', resource: 'configmaps', namespaced: true });
    assert.equal(resolveParamKind('rbac.authorization.k8s.io/v1', 'ClusterRole', informers)?.namespaced, false);
  });

  it('reads by name in paramRef.namespace or the request’s, or by selector', async () => {
    assert.deepEqual(await collectParams(undefined, undefined, 'a', informers), [null]);
    assert.deepEqual(await collectParams(configMaps, undefined, 'a', informers), [null]);
    assert.equal((await collectParams(configMaps, { name: 'one', namespace: 'b' }, 'a', informers))[0]?.metadata.namespace, 'b');
    assert.equal((await collectParams(configMaps, { name: 'one' }, 'a', informers))[0]?.metadata.namespace, 'a');
    const selected = await collectParams(configMaps, { selector: { matchLabels: { use: 'yes' } } }, 'a', informers);
    assert.deepEqual(selected.map((o) => o?.metadata.name), ['one']);
    assert.deepEqual(await collectParams(configMaps, { name: 'none', parameterNotFoundAction: 'Allow' }, 'a', informers), []);
  });

  it('refuses with kube’s messages', async () => {
    await assert.rejects(collectParams(configMaps, { name: 'none', parameterNotFoundAction: 'Deny' }, 'a', informers), /^Error: no params found for policy binding with `Deny` parameterNotFoundAction$/);
    await assert.rejects(collectParams(configMaps, { name: 'one' }, '', informers), /cannot use namespaced paramRef in policy binding that matches cluster-scoped resources/);
    const clusterRoles = resolveParamKind('rbac.authorization.k8s.io/v1', 'ClusterRole', informers)!;
    await assert.rejects(collectParams(clusterRoles, { name: 'x', namespace: 'a' }, 'a', informers), /paramRef.namespace must not be provided for a cluster-scoped `paramKind`/);
  });
});
