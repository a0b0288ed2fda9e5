import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEtcd } from '../../../../test/support/etcd.js';
import { createVia, getVia, setupModule, updateVia, versionOf } from '../../shared/testing.js';
import { horizontalPodAutoscalersModule } from './store.js';

const fx = useEtcd();
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('horizontalpodautoscalers store (etcd)', () => {
  it('stores a v1 HPA as autoscaling/v2 and serves it back in both versions', async () => {
    const { regs, storage } = setupModule(fx, horizontalPodAutoscalersModule);
    const v1 = versionOf(regs, 'v1');
    const v2 = versionOf(regs, 'v2');
    const created = await createVia(v1, { metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: 60 } });
    assert.equal(created.apiVersion, 'autoscaling/v1');
    assert.deepEqual(created.spec, { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    assert.deepEqual(created.status, { currentReplicas: 0, desiredReplicas: 0 });
    assert.equal(created.metadata.annotations, undefined);
    const raw = await storage.get('/horizontalpodautoscalers/ns/web', { resourceVersion: '' });
    assert.equal(raw.apiVersion, 'autoscaling/v2');
    const asV2 = await getVia(v2, 'web');
    assert.deepEqual(asV2.spec, {
      scaleTargetRef: ref,
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
    });
    assert.deepEqual(asV2.status, { currentMetrics: null, desiredReplicas: 0 });
  });

  it('defaults a v1 HPA without a target to 80% CPU', async () => {
    const { regs } = setupModule(fx, horizontalPodAutoscalersModule);
    await createVia(versionOf(regs, 'v1'), { metadata: { name: 'plain' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
    const v1 = await getVia(versionOf(regs, 'v1'), 'plain');
    assert.equal((v1.spec as Record<string, unknown>).targetCPUUtilizationPercentage, 80);
  });

  it('carries v2-only fields through v1 in annotations and back', async () => {
    const { regs } = setupModule(fx, horizontalPodAutoscalersModule);
    const v1 = versionOf(regs, 'v1');
    const v2 = versionOf(regs, 'v2');
    const podsMetric = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
    const created = await createVia(v2, {
      metadata: { name: 'rich', annotations: { keep: 'me' } },
      spec: {
        scaleTargetRef: ref,
        maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }, podsMetric],
        behavior: { scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] } },
      },
    });
    const behavior = (created.spec as Record<string, any>).behavior;
    assert.deepEqual(behavior.scaleUp, {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    });
    assert.deepEqual(behavior.scaleDown, { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] });
    const asV1 = await getVia(v1, 'rich');
    assert.equal((asV1.spec as Record<string, unknown>).targetCPUUtilizationPercentage, 50);
    const annotations = asV1.metadata.annotations ?? {};
    assert.equal(annotations.keep, 'me');
    assert.deepEqual(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/metrics'] ?? ''), [{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    assert.deepEqual(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/behavior'] ?? ''), {
      ScaleUp: {
        StabilizationWindowSeconds: 0,
        SelectPolicy: 'Max',
        Policies: [
          { Type: 'Pods', Value: 4, PeriodSeconds: 15 },
          { Type: 'Percent', Value: 100, PeriodSeconds: 15 },
        ],
        Tolerance: null,
      },
      ScaleDown: { StabilizationWindowSeconds: 60, SelectPolicy: 'Max', Policies: [{ Type: 'Pods', Value: 1, PeriodSeconds: 30 }], Tolerance: null },
    });
    // A v1 client that writes the object back loses nothing.
    const updated = await updateVia(v1, 'rich', (o) => ((o.spec as Record<string, unknown>).maxReplicas = 12));
    assert.equal((updated.spec as Record<string, unknown>).maxReplicas, 12);
    const back = await getVia(v2, 'rich');
    assert.deepEqual((back.spec as Record<string, any>).metrics, [
      podsMetric,
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ]);
    assert.deepEqual((back.spec as Record<string, any>).behavior, behavior);
    assert.deepEqual(back.metadata.annotations, { keep: 'me' });
  });

  it('converts current CPU utilization and other status through v1', async () => {
    const { regs } = setupModule(fx, horizontalPodAutoscalersModule);
    const v1 = versionOf(regs, 'v1');
    const v2 = versionOf(regs, 'v2');
    await createVia(v2, { metadata: { name: 's' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
    const condition = { type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'ReadyForNewScale' };
    await updateVia(
      v2,
      's',
      (o) =>
        (o.status = {
          currentReplicas: 2,
          desiredReplicas: 2,
          currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 42 } } }],
          conditions: [condition],
        }),
      { subresource: 'status' },
    );
    const asV1 = await getVia(v1, 's');
    assert.deepEqual(asV1.status, { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 42 });
    assert.deepEqual(JSON.parse(asV1.metadata.annotations?.['autoscaling.alpha.kubernetes.io/conditions'] ?? ''), [condition]);
    assert.deepEqual(JSON.parse(asV1.metadata.annotations?.['autoscaling.alpha.kubernetes.io/current-metrics'] ?? ''), [
      { type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 42, currentAverageValue: '100m' } },
    ]);
  });

  it('refuses bad replica bounds and metrics with kube messages', async () => {
    const { regs } = setupModule(fx, horizontalPodAutoscalersModule);
    const v2 = versionOf(regs, 'v2');
    await assert.rejects(
      createVia(v2, { metadata: { name: 'bad' }, spec: { scaleTargetRef: ref, minReplicas: 4, maxReplicas: 2 } }),
      (err: any) => err.status?.message === 'HorizontalPodAutoscaler.autoscaling "bad" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    );
  });
});
