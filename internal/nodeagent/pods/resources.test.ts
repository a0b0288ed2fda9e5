import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linuxResources, resourceFieldValue } from './resources.js';
import { podCgroupParent, podHostname } from './sandbox-config.js';
import type { Container, Pod } from './types.js';

const gi = 1024 ** 3;
const pod = (containers: Container[], qosClass?: string): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: '1234-5678' }, spec: { containers }, ...(qosClass ? { status: { qosClass } } : {}) });

describe('container resources', () => {
  it('cpu shares from requests, quota from limits, memory limit, oom_score_adj per QoS', () => {
    const c: Container = { name: 'a', resources: { requests: { cpu: '250m', memory: '1Gi' }, limits: { cpu: '1500m', memory: '2Gi' } } };
    const r = linuxResources(pod([c]), c, 16 * gi);
    assert.deepEqual(r, { cpu_shares: 256, cpu_period: 100000, cpu_quota: 150000, memory_limit_in_bytes: 2 * gi, oom_score_adj: 938 });
    const best: Container = { name: 'b' };
    assert.deepEqual(linuxResources(pod([best]), best, 16 * gi), { cpu_shares: 2, oom_score_adj: 1000 });
    const g: Container = { name: 'g', resources: { limits: { cpu: '1', memory: '1Gi' } } };
    assert.equal(linuxResources(pod([g]), g, 16 * gi).oom_score_adj, -997);
  });
  it('resourceFieldRef values are divided by the divisor and rounded up', () => {
    const c: Container = { name: 'a', resources: { requests: { cpu: '250m' }, limits: { memory: '64Mi' } } };
    assert.equal(resourceFieldValue({ resource: 'limits.memory', divisor: '1Mi' }, c), '64');
    assert.equal(resourceFieldValue({ resource: 'requests.cpu' }, c), '1');
    assert.equal(resourceFieldValue({ resource: 'requests.cpu', divisor: '1m' }, c), '250');
    assert.throws(() => resourceFieldValue({ resource: 'limits.gpu' }, c), /unsupported container resource/);
  });
  it('sandbox cgroup parent per QoS and driver, only with --cgroup-root', () => {
    const p = pod([{ name: 'a', resources: { requests: { cpu: '1' } } }], 'Burstable');
    assert.equal(podCgroupParent({ cgroupRoot: '', cgroupDriver: 'cgroupfs' }, p), '');
    assert.equal(podCgroupParent({ cgroupRoot: '/', cgroupDriver: 'cgroupfs' }, p), '/kubepods/burstable/pod1234-5678');
    assert.equal(podCgroupParent({ cgroupRoot: '/', cgroupDriver: 'systemd' }, p), 'kubepods-burstable-pod1234_5678.slice');
    assert.equal(podCgroupParent({ cgroupRoot: '/custom', cgroupDriver: 'cgroupfs' }, { ...p, status: { qosClass: 'Guaranteed' } }), '/custom/kubepods/pod1234-5678');
  });
  it('hostname: spec.hostname or the name, at most 63 characters', () => {
    assert.equal(podHostname({ metadata: { name: 'x'.repeat(62) + '-y' }, spec: { containers: [] } }), 'x'.repeat(62));
    assert.equal(podHostname({ metadata: { name: 'p' }, spec: { containers: [], hostname: 'h' } }), 'h');
  });
});
