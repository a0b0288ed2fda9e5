import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { canAdmitPod } from './admission.js';
import { podRequests } from './pod-requests.js';

const node: KubeObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', labels: { 'kubernetes.io/os': 'linux', zone: 'a', gen: '5' } },
  spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }, { key: 'soft', effect: 'NoSchedule' }] },
  status: { allocatable: { cpu: '2', memory: '1Gi', pods: '3', 'example.com/gpu': '1' } },
};
const tolerateAll = [{ operator: 'Exists' }];

function pod(name: string, spec: Record<string, unknown> = {}, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: name, ...meta }, spec: { nodeName: 'n1', tolerations: tolerateAll, containers: [{ name: 'c', image: 'i' }], ...spec } };
}

function withRequests(name: string, requests: Record<string, string>): KubeObject {
  return pod(name, { containers: [{ name: 'c', image: 'i', resources: { requests } }] });
}

describe('kubelet admission (canAdmitPod)', () => {
  it('admits a pod that fits', () => {
    assert.deepEqual(canAdmitPod(pod('a'), [], node), { admit: true });
  });

  it('OutOfpods past the allocatable pod count', () => {
    assert.deepEqual(canAdmitPod(pod('d'), [pod('a'), pod('b'), pod('c')], node), {
      admit: false,
      reason: 'OutOfpods',
      message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
    });
  });

  it('OutOfcpu and OutOfmemory count the other pods\' requests', () => {
    assert.deepEqual(canAdmitPod(withRequests('b', { cpu: '1500m' }), [withRequests('a', { cpu: '600m' })], node), {
      admit: false,
      reason: 'OutOfcpu',
      message: "Node didn't have enough resource: cpu, requested: 1500, used: 600, capacity: 2000",
    });
    assert.deepEqual(canAdmitPod(withRequests('b', { memory: '1Gi' }), [withRequests('a', { memory: '1' })], node), {
      admit: false,
      reason: 'OutOfmemory',
      message: "Node didn't have enough resource: memory, requested: 1073741824, used: 1, capacity: 1073741824",
    });
    assert.equal(canAdmitPod(withRequests('b', { 'example.com/gpu': '2' }), [], node).reason, 'OutOfexample.com/gpu');
    // An extended resource the node does not know is not counted (cluster-level resources).
    assert.equal(canAdmitPod(withRequests('b', { 'example.com/fpga': '2' }), [], node).admit, true);
  });

  it('init containers count as their maximum, sidecars add up', () => {
    const p = pod('x', {
      initContainers: [
        { name: 'big', image: 'i', resources: { requests: { cpu: '1' } } },
        { name: 'side', image: 'i', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } },
      ],
      containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '200m' } } }],
    });
    assert.equal(podRequests(p).get('cpu'), 1000n);
    const q = pod('y', { initContainers: [{ name: 'side', image: 'i', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } }, { name: 'big', image: 'i', resources: { requests: { cpu: '1' } } }] });
    assert.equal(podRequests(q).get('cpu'), 1100n);
  });

  it('NodeAffinity: nodeSelector and required node affinity', () => {
    const message = "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector";
    assert.deepEqual(canAdmitPod(pod('a', { nodeSelector: { zone: 'b' } }), [], node), { admit: false, reason: 'NodeAffinity', message });
    const affinity = (expr: Record<string, unknown>) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr] }] } } } });
    assert.equal(canAdmitPod(pod('a', affinity({ key: 'zone', operator: 'In', values: ['a', 'b'] })), [], node).admit, true);
    assert.equal(canAdmitPod(pod('a', affinity({ key: 'zone', operator: 'NotIn', values: ['a'] })), [], node).reason, 'NodeAffinity');
    assert.equal(canAdmitPod(pod('a', affinity({ key: 'gen', operator: 'Gt', values: ['4'] })), [], node).admit, true);
    assert.equal(canAdmitPod(pod('a', affinity({ key: 'gen', operator: 'Lt', values: ['4'] })), [], node).admit, false);
    assert.equal(canAdmitPod(pod('a', affinity({ key: 'ssd', operator: 'DoesNotExist' })), [], node).admit, true);
    const byName = { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }] } } } };
    assert.equal(canAdmitPod(pod('a', byName), [], node).admit, true, 'terms are ORed');
  });

  it('NodeName, NodePorts and the os checks', () => {
    assert.deepEqual(canAdmitPod(pod('a', { nodeName: 'n2' }), [], node), { admit: false, reason: 'NodeName', message: "Predicate NodeName failed: node(s) didn't match the requested node name" });
    const web = (name: string, hostIP?: string) => pod(name, { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, hostPort: 8080, ...(hostIP ? { hostIP } : {}) }] }] });
    assert.deepEqual(canAdmitPod(web('b'), [web('a', '10.0.0.1')], node), { admit: false, reason: 'NodePorts', message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports" });
    assert.equal(canAdmitPod(web('b', '10.0.0.2'), [web('a', '10.0.0.1')], node).admit, true);
    assert.equal(canAdmitPod(pod('a', { os: { name: 'windows' } }), [], node).reason, 'PodOSNotSupported');
    assert.deepEqual(canAdmitPod(pod('a', {}, { labels: { 'kubernetes.io/os': 'windows' } }), [], node), {
      admit: false,
      reason: 'PodOSSelectorNodeLabelDoesNotMatch',
      message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    });
  });

  it('TaintToleration: only untolerated NoExecute taints, and never for static pods', () => {
    const untolerating = pod('a', { tolerations: [] });
    assert.deepEqual(canAdmitPod(untolerating, [], node), { admit: false, reason: 'TaintToleration', message: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate" });
    const tolerating = pod('a', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoExecute' }] });
    assert.equal(canAdmitPod(tolerating, [], node).admit, true, 'the NoSchedule taint does not matter to kubelet');
    assert.equal(canAdmitPod(pod('a', { tolerations: [{ key: 'dedicated', value: 'web' }] }), [], node).admit, false);
    const staticPod = pod('s', { tolerations: [] }, { annotations: { 'kubernetes.io/config.source': 'file' } });
    assert.equal(canAdmitPod(staticPod, [], node).admit, true);
  });
});
