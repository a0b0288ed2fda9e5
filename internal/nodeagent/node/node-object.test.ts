import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultNodeAgentConfig } from '../options/defaults.js';
import { nodeLabelsError } from '../options/node-labels.js';
import { nodeResources, podsCapacity, reconcileExistingNode, topImages } from './node-object.js';

const machine = { cores: 2, memoryBytes: 8 * 1024 ** 3, machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', operatingSystem: 'linux', architecture: 'amd64' };
const fs = { capacityBytes: 100 * 1024 ** 3, availableBytes: 0, usedBytes: 0, inodes: 0, inodesFree: 0, inodesUsed: 0 };

describe('node object', () => {
  it('capacity and allocatable: memory and nodefs hard thresholds reserved', () => {
    const { capacity, allocatable } = nodeResources(defaultNodeAgentConfig(), machine, fs);
    assert.deepEqual(capacity, { cpu: '2', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '8Gi', pods: '110' });
    assert.equal(allocatable.memory, '8092Mi');
    assert.equal(allocatable['ephemeral-storage'], '90Gi');
  });

  it('pods: podsPerCore x cores when lower than maxPods', () => {
    assert.equal(podsCapacity({ maxPods: 110, podsPerCore: 10 }, 4), 40);
    assert.equal(podsCapacity({ maxPods: 30, podsPerCore: 10 }, 4), 30);
    assert.equal(podsCapacity({ maxPods: 110, podsPerCore: 0 }, 4), 110);
  });

  it('images: the largest 50, digests then tags', () => {
    const list = Array.from({ length: 60 }, (_, i) => ({ repo_tags: [`img${i}:1`], repo_digests: [`img${i}@sha256:x`], size: i }));
    const top = topImages(list);
    assert.equal(top.length, 50);
    assert.deepEqual(top[0], { names: ['img59@sha256:x', 'img59:1'], sizeBytes: 59 });
  });

  it('reconciles default labels and the attach/detach annotation of an existing node', () => {
    const wanted = { metadata: { labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': 'h', mine: 'x' } } };
    const { node, changed } = reconcileExistingNode({ metadata: { name: 'n', labels: { 'kubernetes.io/os': 'plan9', keep: 'y' } } }, wanted);
    assert.equal(changed, true);
    assert.deepEqual(node.metadata.labels, { 'kubernetes.io/os': 'linux', keep: 'y', 'kubernetes.io/hostname': 'h' });
    assert.equal(node.metadata.annotations['volumes.kubernetes.io/controller-managed-attach-detach'], 'true');
    assert.equal(reconcileExistingNode(node, wanted).changed, false);
  });

  it('--node-labels: kubelet refuses kubernetes.io labels outside its allowed set', () => {
    assert.equal(nodeLabelsError({ 'node.kubernetes.io/pool': 'a', 'example.com/x': 'b', 'topology.kubernetes.io/zone': 'z', 'kubelet.kubernetes.io/y': '' }), undefined);
    assert.match(nodeLabelsError({ 'node-role.kubernetes.io/worker': '', 'x.k8s.io/y': '' }) ?? '', /^unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: \[node-role.kubernetes.io\/worker x.k8s.io\/y\]/);
  });
});
