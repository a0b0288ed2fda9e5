import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { testAttributes } from '../admission/plugins/test-attributes.js';
import { isBestEffort, newPodEvaluator, quotaV1Pod, usesCrossNamespacePodAffinity } from './pods.js';
import { resourceListToJSON } from './resource-list.js';

const e = newPodEvaluator(() => Date.parse('2026-01-01T00:00:00Z'));

function pod(spec: Record<string, unknown>, extra: Partial<KubeObject> = {}): KubeObject {
  return { metadata: { name: 'p', ...(extra.metadata ?? {}) }, spec, ...(extra as object) } as KubeObject;
}

const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>, restartPolicy?: string) => ({
  name,
  image: 'i',
  ...(restartPolicy ? { restartPolicy } : {}),
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

describe('pods evaluator usage', () => {
  it('charges requests under both names, limits, hugepages and extended resources', () => {
    const usage = e.usage(
      pod({
        containers: [
          c('a', { cpu: '100m', memory: '64Mi', 'ephemeral-storage': '1Gi', 'hugepages-2Mi': '4Mi', 'example.com/gpu': '1' }, { cpu: '200m', memory: '64Mi', 'example.com/gpu': '1' }),
          c('b', { cpu: '150m' }),
        ],
      }),
    );
    assert.deepEqual(resourceListToJSON(usage), {
      'count/pods': '1',
      pods: '1',
      cpu: '250m',
      'requests.cpu': '250m',
      'limits.cpu': '200m',
      memory: '64Mi',
      'requests.memory': '64Mi',
      'limits.memory': '64Mi',
      'ephemeral-storage': '1Gi',
      'requests.ephemeral-storage': '1Gi',
      'hugepages-2Mi': '4Mi',
      'requests.hugepages-2Mi': '4Mi',
      'requests.example.com/gpu': '1',
    });
  });

  it('takes the largest init container, adds sidecars and the overhead', () => {
    const usage = e.usage(
      pod({
        containers: [c('a', { cpu: '100m' }, { cpu: '100m' })],
        initContainers: [c('side', { cpu: '50m' }, { cpu: '50m' }, 'Always'), c('init', { cpu: '500m' }, { cpu: '1' })],
        overhead: { cpu: '10m', memory: '1Mi' },
      }),
    );
    // requests: max(100m+50m, 500m+50m) + 10m = 560m; limits: max(150m, 1050m) + 10m; memory has no limit so no overhead there.
    assert.equal(usage.get('requests.cpu')?.toString(), '560m');
    assert.equal(usage.get('limits.cpu')?.toString(), '1060m');
    assert.equal(usage.get('requests.memory')?.toString(), '1Mi');
    assert.equal(usage.get('limits.memory'), undefined);
  });

  it('counts finished pods and pods past their grace period in count/pods only', () => {
    const done = pod({ containers: [c('a', { cpu: '1' })] }, { status: { phase: 'Succeeded' } } as Partial<KubeObject>);
    assert.deepEqual(resourceListToJSON(e.usage(done)), { 'count/pods': '1' });
    const stuck = { ...pod({ containers: [] }), metadata: { name: 'p', deletionTimestamp: '2025-12-31T23:59:00Z', deletionGracePeriodSeconds: 30 } };
    assert.equal(quotaV1Pod(stuck, Date.parse('2026-01-01T00:00:00Z')), false);
    assert.equal(quotaV1Pod(stuck, Date.parse('2025-12-31T23:59:10Z')), true);
  });
});

describe('pods evaluator scopes and constraints', () => {
  it('matches Terminating, BestEffort, PriorityClass selectors and cross-namespace affinity', () => {
    const be = pod({ containers: [c('a')], activeDeadlineSeconds: 10, priorityClassName: 'high' });
    const burst = pod({ containers: [c('a', { memory: '1Mi' })] });
    assert.equal(isBestEffort(be), true);
    assert.equal(isBestEffort(burst), false);
    assert.equal(e.matchesScope({ scopeName: 'Terminating', operator: 'Exists' }, be), true);
    assert.equal(e.matchesScope({ scopeName: 'NotTerminating', operator: 'Exists' }, burst), true);
    assert.equal(e.matchesScope({ scopeName: 'NotBestEffort', operator: 'Exists' }, burst), true);
    assert.equal(e.matchesScope({ scopeName: 'PriorityClass', operator: 'In', values: ['high', 'x'] }, be), true);
    assert.equal(e.matchesScope({ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }, be), false);
    assert.equal(e.matchesScope({ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }, burst), true);
    assert.equal(e.matchesScope({ scopeName: 'PriorityClass', operator: 'DoesNotExist' }, burst), true);
    assert.equal(e.matchesScope({ scopeName: 'PriorityClass', operator: 'Exists' }, burst), false);
    const affinity = pod({
      containers: [],
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'k', namespaceSelector: {} } }] } },
    });
    assert.equal(usesCrossNamespacePodAffinity(affinity), true);
    assert.equal(usesCrossNamespacePodAffinity(burst), false);
    assert.equal(e.matchesScope({ scopeName: 'CrossNamespacePodAffinity', operator: 'Exists' }, affinity), true);
  });

  it('requires every container to state the cpu and memory a quota limits, in kube words', () => {
    const p = pod({ containers: [c('b', { cpu: '1' }), c('a')], initContainers: [c('i', { cpu: '1', memory: '1' }, { cpu: '1' })] });
    assert.equal(e.constraints(['limits.cpu', 'requests.cpu', 'requests.memory', 'pods'], p), 'must specify limits.cpu for: a,b; requests.cpu for: a; requests.memory for: a,b');
    assert.equal(e.constraints(['pods', 'requests.ephemeral-storage'], p), undefined);
  });

  it('tracks pod names, hugepages and requests.<extended> but not bare extended names; handles creates only', () => {
    assert.deepEqual(e.matchingResources(['pods', 'secrets', 'requests.hugepages-1Gi', 'requests.example.com/gpu', 'example.com/gpu', 'limits.cpu']), [
      'pods',
      'limits.cpu',
      'requests.hugepages-1Gi',
      'requests.example.com/gpu',
    ]);
    assert.equal(e.handles(testAttributes({ resource: 'pods' })), true);
    assert.equal(e.handles(testAttributes({ resource: 'pods', operation: 'UPDATE' })), false);
    assert.equal(e.handles(testAttributes({ resource: 'pods', subresource: 'resize', operation: 'UPDATE' })), true);
    assert.equal(e.handles(testAttributes({ resource: 'pods', subresource: 'status', operation: 'UPDATE' })), false);
  });
});
