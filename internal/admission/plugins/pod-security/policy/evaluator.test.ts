import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latestVersion, type LevelVersion } from '../api.js';
import type { PodSpec } from '../pod-types.js';
import { aggregateCheckResults, forbiddenDetail, forbiddenReason } from './check.js';
import { Evaluator } from './evaluator.js';

const ev = new Evaluator();
const privilegedPod: PodSpec = { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] };
const lv = (level: LevelVersion['level'], version: number): LevelVersion => ({ level, version });
const detail = (l: LevelVersion, spec: PodSpec) => forbiddenDetail(aggregateCheckResults(ev.evaluatePod(l, {}, spec)));

describe('Evaluator', () => {
  it('knows policy versions up to v1.32 in kube 1.33; later ones and latest evaluate as v1.32', () => {
    assert.equal(ev.maxMinor, 32);
    const sysctl: PodSpec = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }] } };
    assert.equal(detail(lv('baseline', 31), sysctl), 'forbidden sysctls (net.ipv4.tcp_rmem)');
    assert.equal(detail(lv('baseline', 32), sysctl), '');
    assert.equal(detail(lv('baseline', 40), sysctl), '');
    assert.equal(detail(lv('baseline', latestVersion), sysctl), '');
  });

  it('privileged allows everything', () => {
    assert.deepEqual(ev.evaluatePod(lv('privileged', latestVersion), {}, privilegedPod), []);
  });

  it('restricted reads baseline reasons first, then restricted, each ordered by check ID (kube message)', () => {
    assert.equal(
      detail(lv('restricted', latestVersion), privilegedPod),
      'privileged (container "c" must not set securityContext.privileged=true), ' +
        'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    assert.equal(detail(lv('baseline', latestVersion), privilegedPod), 'privileged (container "c" must not set securityContext.privileged=true)');
  });

  it('a restricted check overrides its baseline twin only from the version it exists in', () => {
    const netRaw: PodSpec = { containers: [{ name: 'c', securityContext: { capabilities: { add: ['NET_RAW'] } } }] };
    const reasons = (l: LevelVersion) => forbiddenReason(aggregateCheckResults(ev.evaluatePod(l, {}, netRaw)));
    // v1.21: capabilities_restricted does not exist yet, so the baseline check still runs.
    assert.equal(reasons(lv('restricted', 21)), 'non-default capabilities, allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile');
    assert.equal(reasons(lv('restricted', 22)), 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile');
    // v1.7: no allowPrivilegeEscalation, seccomp from annotations (none set).
    assert.equal(reasons(lv('restricted', 7)), 'non-default capabilities, runAsNonRoot != true');
    const host: PodSpec = { volumes: [{ name: 'h', hostPath: { path: '/' } }] };
    assert.equal(detail(lv('baseline', 0), host), 'hostPath volumes (volume "h")');
    assert.equal(detail(lv('restricted', 0), host), 'restricted volume types (volume "h" uses restricted volume type "hostPath")');
  });

  it('a pod that meets restricted passes every version', () => {
    const good: PodSpec = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    };
    for (let v = 0; v <= 33; v++) assert.equal(detail(lv('restricted', v), good), '', `v1.${v}`);
  });

  it('refuses invalid check sets', () => {
    const fn = () => ({ allowed: true });
    assert.throws(() => new Evaluator([{ id: 'a', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: fn }] }, { id: 'a', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: fn }] }]), /multiple checks registered for ID a/);
    assert.throws(() => new Evaluator([{ id: 'a', level: 'baseline', versions: [{ minimumMinor: 3, checkPod: fn }, { minimumMinor: 3, checkPod: fn }] }]), /strictly increasing/);
  });
});
