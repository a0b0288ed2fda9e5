import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { latestVersion, type Policy } from './api.js';
import { loadPodSecurityConfig } from './config.js';
import { evaluatePodsInNamespace, exemptNamespaceWarning } from './namespace-pods.js';
import { Evaluator } from './policy/evaluator.js';

const ev = new Evaluator();
const cfg = loadPodSecurityConfig(undefined);
const baseline = { level: 'baseline' as const, version: latestVersion };
const pod = (name: string, owner?: string, privileged = true): KubeObject => ({
  metadata: { name, namespace: 'ns', ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true }] } : {}) },
  spec: { containers: [{ name: 'c', securityContext: { privileged } }] },
});

describe('existing pods under a new enforce level', () => {
  it('checks at most 3000 pods, one per controller first', async () => {
    const pods: KubeObject[] = [];
    for (let i = 0; i < 3005; i++) pods.push(pod(`rs-${String(i).padStart(4, '0')}`, 'rs', false));
    pods.push(pod('lonely'));
    const w = await evaluatePodsInNamespace(ev, cfg, async () => pods, 'ns', baseline, undefined);
    // The lone privileged pod is checked even though it comes last: replicas of one controller go to the back.
    assert.deepEqual(w, [
      'new PodSecurity enforce level only checked against the first 3000 of 3006 existing pods',
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
      'lonely: privileged',
    ]);
  });

  it('stops at the timeout (half the request\'s remaining time when shorter)', async () => {
    let t = 0;
    const now = () => (t += 100);
    const pods = [pod('a'), pod('b'), pod('c'), pod('d')];
    const w = await evaluatePodsInNamespace(ev, cfg, async () => pods, 'ns', baseline, 500, now);
    assert.equal(w[0], 'new PodSecurity enforce level only checked against the first 2 of 4 existing pods');
    assert.equal(w[2], 'a (and 1 other pod): privileged');
  });

  it('reports a failed list', async () => {
    assert.deepEqual(await evaluatePodsInNamespace(ev, cfg, async () => Promise.reject(new Error('x')), 'ns', baseline, undefined), [
      'failed to list pods while checking new PodSecurity enforce level',
    ]);
  });

  it('warns when an exempt namespace sets a policy', () => {
    const p = (e: 'privileged' | 'baseline', w: 'privileged' | 'restricted'): Policy => ({
      enforce: { level: e, version: latestVersion },
      audit: { level: 'privileged', version: latestVersion },
      warn: { level: w, version: 25 },
    });
    const labels = { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.25' };
    assert.equal(exemptNamespaceWarning('kube-system', p('baseline', 'restricted'), labels, cfg.defaults), 'namespace "kube-system" is exempt from Pod Security, and the policy (enforce=baseline:latest, warn=restricted:v1.25) will be ignored');
    assert.equal(exemptNamespaceWarning('kube-system', p('privileged', 'privileged'), labels, cfg.defaults), '');
  });
});
