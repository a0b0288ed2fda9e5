import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { UserInfo } from '../../../request/context.js';
import { attrsFor, pod, testContext } from '../pod-shared/fakes.js';
import { NodeRestriction } from './plugin.js';

const n1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const node = (name: string, labels: Record<string, string> = {}, spec: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `${name}-uid`, labels }, spec });
const pods: Record<string, KubeObject> = {
  'ns/mine': pod('mine', { nodeName: 'n1', containers: [], volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] }, { uid: 'mine-uid' }),
  'ns/theirs': pod('theirs', { nodeName: 'n2', containers: [] }, { uid: 'theirs-uid' }),
};
const plugin = new NodeRestriction({
  pod: async (ns, name) => pods[`${ns}/${name}`],
  node: async (name) => (name === 'n1' ? node('n1') : undefined),
  claim: async () => undefined,
  volume: async () => undefined,
  csiDriver: async () => undefined,
  authorizer: () => ({ name: 'test', authorize: (a) => ({ decision: a.verb === 'request-serviceaccounts-token-audience' && a.resource === 'granted' ? 'Allow' : 'NoOpinion', reason: '' }) }),
});
const asNode = (op: 'CREATE' | 'UPDATE' | 'DELETE', obj: KubeObject | undefined, opts: Parameters<typeof attrsFor>[2] = {}) => attrsFor(op, obj, { user: n1, ...opts });
const nodeOpts = { resource: 'nodes', kind: 'Node', namespace: '' };

describe('NodeRestriction', () => {
  it('leaves other users alone and refuses a node user without a name', async () => {
    await plugin.admit(attrsFor('UPDATE', node('n2'), nodeOpts), testContext);
    await assert.rejects(plugin.admit(attrsFor('UPDATE', node('n2'), { ...nodeOpts, user: { name: 'system:node:', groups: ['system:nodes'] } }), testContext), {
      message: 'nodes "n2" is forbidden: could not determine node from user "system:node:"',
    });
  });

  it('lets a node change only its own Node, not its taints or restricted labels', async () => {
    await assert.rejects(plugin.admit(asNode('UPDATE', node('n2'), { ...nodeOpts, oldObject: node('n2') }), testContext), {
      message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    });
    await plugin.admit(asNode('UPDATE', node('n1', { 'kubernetes.io/hostname': 'n1', 'x.kubelet.kubernetes.io/a': 'b', mine: 'x' }), { ...nodeOpts, oldObject: node('n1') }), testContext);
    await assert.rejects(plugin.admit(asNode('UPDATE', node('n1', {}, { taints: [] }), { ...nodeOpts, oldObject: node('n1', {}, { taints: [{ key: 'k', effect: 'NoSchedule' }] }) }), testContext), {
      message: 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
    });
    await assert.rejects(plugin.admit(asNode('UPDATE', node('n1', { 'foo.k8s.io/x': '1', 'a.node-restriction.kubernetes.io/b': '2' }), { ...nodeOpts, oldObject: node('n1') }), testContext), {
      message: 'nodes "n1" is forbidden: is not allowed to modify labels: a.node-restriction.kubernetes.io/b, foo.k8s.io/x',
    });
    await assert.rejects(plugin.admit(asNode('CREATE', node('n1', { 'node-restriction.kubernetes.io/x': '1' }), nodeOpts), testContext), {
      message: 'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/x',
    });
  });

  it('lets a node create only mirror pods bound to and owned by itself', async () => {
    const mirror = (spec: Record<string, unknown>, owner: Record<string, unknown> = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'n1-uid', controller: true }) =>
      pod('m', { nodeName: 'n1', containers: [], ...spec }, { annotations: { 'kubernetes.io/config.mirror': 'x' }, ownerReferences: [owner] });
    await plugin.admit(asNode('CREATE', mirror({})), testContext);
    await assert.rejects(plugin.admit(asNode('CREATE', pod('p', { nodeName: 'n1', containers: [] })), testContext), /pod does not have "kubernetes.io\/config.mirror" annotation, node "n1" can only create mirror pods/);
    await assert.rejects(plugin.admit(asNode('CREATE', mirror({ nodeName: 'n2' })), testContext), /node "n1" can only create pods with spec.nodeName set to itself/);
    await assert.rejects(plugin.admit(asNode('CREATE', mirror({}, { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'n1-uid' })), testContext), /controller owner reference/);
    await assert.rejects(plugin.admit(asNode('CREATE', mirror({}, { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'old', controller: true })), testContext), {
      message: 'pods "m" is forbidden: node n1 UID mismatch: expected old got n1-uid',
    });
    await assert.rejects(plugin.admit(asNode('CREATE', mirror({ volumes: [{ name: 'c', configMap: { name: 'cm' } }] })), testContext), /can not create pods that reference configmaps/);
    await assert.rejects(plugin.admit(asNode('CREATE', mirror({ volumes: [{ name: 'c', persistentVolumeClaim: { claimName: 'x' } }] })), testContext), /reference persistentvolumeclaims/);
  });

  it('lets a node delete, evict and update the status of its own pods only', async () => {
    await plugin.admit(asNode('DELETE', undefined, { name: 'mine', oldObject: pods['ns/mine'] }), testContext);
    await assert.rejects(plugin.admit(asNode('DELETE', undefined, { name: 'theirs', oldObject: pods['ns/theirs'] }), testContext), /node "n1" can only delete pods with spec.nodeName set to itself/);
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'theirs', namespace: 'ns' } };
    await assert.rejects(plugin.admit(asNode('CREATE', eviction, { subresource: 'eviction', name: 'theirs' }), testContext), {
      message: 'pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
    });
    const mine = pods['ns/mine'] as KubeObject;
    const relabelled = { ...mine, metadata: { ...mine.metadata, labels: { a: 'b' } } };
    await assert.rejects(plugin.admit(asNode('UPDATE', relabelled, { subresource: 'status', oldObject: mine }), testContext), /cannot update labels through pod status/);
    await plugin.admit(asNode('UPDATE', { ...mine, status: { phase: 'Running' } }, { subresource: 'status', oldObject: mine }), testContext);
    await assert.rejects(plugin.admit(asNode('UPDATE', mine, { subresource: 'ephemeralcontainers', oldObject: mine }), testContext), {
      message: `pods "mine" is forbidden: unexpected pod subresource "ephemeralcontainers", only 'status' and 'eviction' are allowed`,
    });
  });

  it('lets a node get tokens only for its pods, and touch only its own Lease and CSINode', async () => {
    const token = (name: string, uid: string, audiences?: string[]) => ({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'default' },
      spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name, uid }, ...(audiences ? { audiences } : {}) },
    });
    const saOpts = { resource: 'serviceaccounts', subresource: 'token', name: 'default' };
    await plugin.admit(asNode('CREATE', token('mine', 'mine-uid'), saOpts), testContext);
    await assert.rejects(plugin.admit(asNode('CREATE', token('theirs', 'theirs-uid'), saOpts), testContext), /node requested token bound to a pod scheduled on a different node/);
    await assert.rejects(plugin.admit(asNode('CREATE', token('mine', 'stale'), saOpts), testContext), /the UID in the bound object reference \(stale\) does not match/);
    await assert.rejects(plugin.admit(asNode('CREATE', token('mine', 'mine-uid', ['vault']), saOpts), testContext), {
      message: 'serviceaccounts "default" is forbidden: audience "vault" not found in pod spec volume, system:node:n1 is not authorized to request tokens for this audience',
    });
    await plugin.admit(asNode('CREATE', token('mine', 'mine-uid', ['granted']), saOpts), testContext);
    await assert.rejects(plugin.admit(asNode('CREATE', token('mine', 'mine-uid', ['a', 'b']), saOpts), testContext), /node may only request 0 or 1 audiences/);
    const lease = (name: string, namespace = 'kube-node-lease') => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace } });
    const leaseOpts = (namespace = 'kube-node-lease') => ({ group: 'coordination.k8s.io', resource: 'leases', kind: 'Lease', namespace });
    await plugin.admit(asNode('CREATE', lease('n1'), leaseOpts()), testContext);
    await assert.rejects(plugin.admit(asNode('CREATE', lease('n2'), leaseOpts()), testContext), /can only access node lease with the same name as the requesting node/);
    await assert.rejects(plugin.admit(asNode('CREATE', lease('n1', 'default'), leaseOpts('default')), testContext), /can only access leases in the "kube-node-lease" system namespace/);
    const csiOpts = { group: 'storage.k8s.io', resource: 'csinodes', kind: 'CSINode', namespace: '', name: 'n2' };
    await assert.rejects(plugin.admit(asNode('UPDATE', { metadata: { name: 'n2' } }, csiOpts), testContext), /can only access CSINode with the same name as the requesting node/);
  });
});
