import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { connectSubpath } from '../../../endpoints/handlers/connect.js';
import { validateBinding } from './binding.js';
import { budgetsFor, isPodReady, takeDisruption } from './pdb-budget.js';
import { podResizeStrategy, validatePodResize } from './resize.js';

const ctx = {} as never;

function pod(resources: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'i', resources }], ...extra },
    status: { phase: 'Running', qosClass: 'Burstable' },
  };
}

function pdb(status: Record<string, unknown>, selector: unknown = { matchLabels: { app: 'web' } }, generation = 1): KubeObject {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b', namespace: 'ns', generation }, spec: { selector }, status };
}

describe('Binding validation', () => {
  it('needs a target name and a Node (or empty) kind', () => {
    assert.deepEqual(validateBinding({ metadata: {}, target: { name: 'n' } } as KubeObject), []);
    const errs = validateBinding({ metadata: {}, target: { kind: 'Pod' } } as KubeObject);
    assert.deepEqual(errs.map((e) => e.field), ['target.kind', 'target.name']);
  });
});

describe('eviction budgets', () => {
  it('matches budgets of the namespace with a non-empty selector only', () => {
    const p = pod({});
    const other = { ...pdb({}), metadata: { name: 'o', namespace: 'other' } };
    assert.deepEqual(budgetsFor(p, [pdb({}), pdb({}, {}), pdb({}, { matchLabels: { app: 'db' } }), other]).length, 1);
  });

  it('takes one disruption, records the pod, and marks InsufficientPods at zero', () => {
    const next = takeDisruption(pdb({ observedGeneration: 1, disruptionsAllowed: 1, desiredHealthy: 2, currentHealthy: 3 }), 'p');
    const status = next.status as Record<string, any>;
    assert.equal(status.disruptionsAllowed, 0);
    assert.ok(status.disruptedPods.p);
    assert.equal(status.conditions[0].reason, 'InsufficientPods');
    assert.equal(status.conditions[0].status, 'False');
  });

  it('refuses with kube errors', () => {
    assert.throws(() => takeDisruption(pdb({ observedGeneration: 0, disruptionsAllowed: 1 }), 'p'), (err: any) => err.code === 429 && err.status.details.retryAfterSeconds === 10);
    assert.throws(() => takeDisruption(pdb({ observedGeneration: 1, disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 2 }), 'p'), (err: any) => {
      assert.equal(err.code, 429);
      assert.equal(err.status.details.retryAfterSeconds, undefined);
      assert.deepEqual(err.status.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget b needs 2 healthy pods and has 2 currently' }]);
      return true;
    });
    assert.throws(() => takeDisruption(pdb({ observedGeneration: 1, disruptionsAllowed: -1 }), 'p'), /poddisruptionbudget.policy "b" is forbidden: pdb disruptions allowed is negative/);
  });

  it('reads readiness from the Ready condition', () => {
    assert.equal(isPodReady({ metadata: {}, status: { conditions: [{ type: 'Ready', status: 'True' }] } }), true);
    assert.equal(isPodReady({ metadata: {}, status: { conditions: [{ type: 'Ready', status: 'False' }] } }), false);
  });
});

describe('pods/resize', () => {
  const base = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } };

  function resize(old: KubeObject, next: KubeObject): string[] {
    const obj = structuredClone(next);
    podResizeStrategy.prepareForUpdate(ctx, obj, old);
    return validatePodResize(obj, old).map((e) => `${e.field}: ${e.detail}`);
  }

  it('keeps everything but resources and resize policy', () => {
    const old = pod(base);
    const next = pod({ ...base, requests: { cpu: '150m', memory: '64Mi' } }, { restartPolicy: 'Never' });
    (next.spec as any).containers[0].image = 'changed';
    const obj = structuredClone(next);
    podResizeStrategy.prepareForUpdate(ctx, obj, old);
    assert.equal((obj.spec as any).containers[0].image, 'i');
    assert.equal((obj.spec as any).restartPolicy, undefined);
    assert.equal((obj.spec as any).containers[0].resources.requests.cpu, '150m');
    assert.deepEqual(validatePodResize(obj, old), []);
  });

  it('refuses other resources, removals, QoS changes and static pods', () => {
    const old = pod(base);
    assert.deepEqual(resize(old, pod({ ...base, limits: { ...base.limits, 'ephemeral-storage': '1Gi' } })), ['spec: only cpu and memory resources are mutable']);
    assert.deepEqual(resize(old, pod({ ...base, requests: { cpu: '100m' } })), ['spec.containers[0].resources.requests: resource requests cannot be removed']);
    assert.deepEqual(resize(old, pod({ ...base, requests: { cpu: '200m', memory: '64Mi' } })), ['spec: Pod QOS Class may not change as a result of resizing']);
    const mirror = { ...pod(base), metadata: { name: 'p', annotations: { 'kubernetes.io/config.mirror': 'x' } } };
    assert.deepEqual(resize(mirror, mirror), [': static pods cannot be resized']);
  });
});

describe('connect subpaths', () => {
  it('joins what follows the subresource, keeping the trailing slash', () => {
    assert.equal(connectSubpath(['pods', 'p', 'proxy'], '/api/v1/namespaces/ns/pods/p/proxy'), '');
    assert.equal(connectSubpath(['pods', 'p', 'proxy'], '/api/v1/namespaces/ns/pods/p/proxy/'), '/');
    assert.equal(connectSubpath(['pods', 'p', 'proxy', 'a', 'b'], '/api/v1/namespaces/ns/pods/p/proxy/a/b/'), '/a/b/');
  });
});
