/**
 * horizontalpodautoscalers, v2 and v1: columns and cells as kube prints them, TARGETS after the
 * cases of kube's TestPrintHPA (every metric source, known and unknown currents, "+ N more...").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatHPAMetrics, hpaPrinter } from './hpa.js';
import { ago, columnSpec, day, now } from './testing.js';

type J = Record<string, unknown>;

const v2 = hpaPrinter(false);
const v1 = hpaPrinter(true);

const cpuUtilization = (target?: number): J => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', ...(target === undefined ? {} : { averageUtilization: target }) } } });
const cpuUtilizationNow = (current: number): J => ({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current, averageValue: '120m' } } });

describe('HPA columns', () => {
  it('match kube, all strings, for both versions', () => {
    const want = [
      ['Name', 'string', 'name', 0],
      ['Reference', 'string', '', 0],
      ['Targets', 'string', '', 0],
      ['MinPods', 'string', '', 0],
      ['MaxPods', 'string', '', 0],
      ['Replicas', 'string', '', 0],
      ['Age', 'string', '', 0],
    ];
    assert.deepEqual(columnSpec(v2), want);
    assert.deepEqual(columnSpec(v1), want);
  });
});

describe('HPA targets (formatHPAMetrics)', () => {
  it('print <none> without metrics', () => assert.equal(formatHPAMetrics([], []), '<none>'));
  it('print external metrics by value or average value', () => {
    const value: J = { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '100m' } } };
    const average: J = { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '100m' } } };
    assert.equal(formatHPAMetrics([value], []), '<unknown>/100m');
    assert.equal(formatHPAMetrics([value], [{ type: 'External', external: { current: { value: '50m' } } }]), '50m/100m');
    assert.equal(formatHPAMetrics([average], []), '<unknown>/100m (avg)');
    assert.equal(formatHPAMetrics([average], [{ type: 'External', external: { current: { averageValue: '50m' } } }]), '50m/100m (avg)');
    assert.equal(formatHPAMetrics([average], [{ type: 'External', external: { current: { value: '50m' } } }]), '<unknown>/100m (avg)');
  });
  it('print pods metrics', () => {
    const pods: J = { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '100m' } } };
    assert.equal(formatHPAMetrics([pods], []), '<unknown>/100m');
    assert.equal(formatHPAMetrics([pods], [{ type: 'Pods', pods: { current: { averageValue: '50m' } } }]), '50m/100m');
  });
  it('print object metrics by value or average value', () => {
    const value: J = { type: 'Object', object: { describedObject: { kind: 'Service', name: 'web' }, metric: { name: 'rps' }, target: { type: 'Value', value: '100m' } } };
    const average: J = { type: 'Object', object: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '100m' } } };
    assert.equal(formatHPAMetrics([value], [{ type: 'Object', object: { current: { value: '50m' } } }]), '50m/100m');
    assert.equal(formatHPAMetrics([average], [{ type: 'Object', object: { current: { averageValue: '50m' } } }]), '50m/100m (avg)');
    assert.equal(formatHPAMetrics([value], []), '<unknown>/100m');
  });
  it('print resource metrics by utilization or average value', () => {
    assert.equal(formatHPAMetrics([cpuUtilization(80)], []), 'cpu: <unknown>/80%');
    assert.equal(formatHPAMetrics([cpuUtilization(80)], [cpuUtilizationNow(50)]), 'cpu: 50%/80%');
    assert.equal(formatHPAMetrics([cpuUtilization()], [cpuUtilizationNow(50)]), 'cpu: 50%/<auto>');
    const memory: J = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
    assert.equal(formatHPAMetrics([memory], []), 'memory: <unknown>/100Mi');
    assert.equal(formatHPAMetrics([memory], [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '50Mi' } } }]), 'memory: 50Mi/100Mi');
  });
  it('print container resource metrics', () => {
    const c: J = { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } };
    assert.equal(formatHPAMetrics([c], [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', current: { averageUtilization: 75 } } }]), 'cpu: 75%/60%');
    assert.equal(formatHPAMetrics([c], []), 'cpu: <unknown>/60%');
  });
  it('match statuses by position, print unknown types, and show the first two', () => {
    const memory: J = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
    const specs = [cpuUtilization(80), memory, { type: 'Pods', pods: { target: { averageValue: '1' } } }, { type: 'Bogus' }];
    assert.equal(formatHPAMetrics(specs, [cpuUtilizationNow(50)]), 'cpu: 50%/80%, memory: <unknown>/100Mi + 2 more...');
    assert.equal(formatHPAMetrics([{ type: 'Bogus' }], []), '<unknown type>');
  });
  it('print a missing quantity as Go prints a nil one', () => {
    const external: J = { type: 'External', external: { target: { type: 'Value' } } };
    assert.equal(formatHPAMetrics([external], [{ type: 'External', external: { current: {} } }]), '<nil>/<nil>');
  });
});

describe('autoscaling/v2 HPAs', () => {
  it('print reference, targets, min and max pods, replicas and age', () => {
    const hpa = {
      metadata: { name: 'web', creationTimestamp: ago(2 * day) },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics: [cpuUtilization(80)] },
      status: { currentReplicas: 3, desiredReplicas: 3, currentMetrics: [cpuUtilizationNow(41)] },
    };
    assert.deepEqual(v2.cells(hpa, now), ['web', 'Deployment/web', 'cpu: 41%/80%', '2', 10, 3, '2d']);
  });
  it('print <unset> without minReplicas', () => {
    const hpa = { metadata: { name: 'x' }, spec: { scaleTargetRef: { kind: 'StatefulSet', name: 'db' }, maxReplicas: 3 } };
    assert.deepEqual(v2.cells(hpa, now), ['x', 'StatefulSet/db', '<none>', '<unset>', 3, 0, '<unknown>']);
  });
});

describe('autoscaling/v1 HPAs', () => {
  const base = { metadata: { name: 'web', creationTimestamp: ago(2 * day) } };
  it('print the CPU target and current utilization', () => {
    const hpa = { ...base, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80 }, status: { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 30 } };
    assert.deepEqual(v1.cells(hpa, now), ['web', 'Deployment/web', 'cpu: 30%/80%', '1', 5, 2, '2d']);
    const fresh = { ...base, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 0, desiredReplicas: 0 } };
    assert.equal(v1.cells(fresh, now)[2], 'cpu: <unknown>/50%');
  });
  it('print the metrics kept in annotations, the CPU target where the current metrics put it', () => {
    const annotations = {
      'autoscaling.alpha.kubernetes.io/metrics': JSON.stringify([
        { type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } },
        { type: 'Pods', pods: { metricName: 'rps', targetAverageValue: '10' } },
      ]),
      'autoscaling.alpha.kubernetes.io/current-metrics': JSON.stringify([
        { type: 'Resource', resource: { name: 'memory', currentAverageValue: '50Mi' } },
        { type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 30, currentAverageValue: '150m' } },
        { type: 'Pods', pods: { metricName: 'rps', currentAverageValue: '7' } },
      ]),
    };
    const hpa = { metadata: { ...base.metadata, annotations }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 80 }, status: { currentReplicas: 2, currentCPUUtilizationPercentage: 30 } };
    assert.equal(v1.cells(hpa, now)[2], 'memory: 50Mi/100Mi, cpu: 30%/80% + 1 more...');
  });
  it('put the CPU target last without current metrics to place it by', () => {
    const annotations = { 'autoscaling.alpha.kubernetes.io/metrics': JSON.stringify([{ type: 'External', external: { metricName: 'queue', targetAverageValue: '30' } }]) };
    const hpa = { metadata: { name: 'q', annotations }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'worker' }, maxReplicas: 5, targetCPUUtilizationPercentage: 70 }, status: {} };
    assert.equal(v1.cells(hpa, now)[2], '<unknown>/30 (avg), cpu: <unknown>/70%');
  });
  it('print a v2-shaped object as it is', () => {
    const hpa = { metadata: { name: 'x' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 2, metrics: [cpuUtilization(90)] }, status: { currentMetrics: [cpuUtilizationNow(10)] } };
    assert.equal(v1.cells(hpa, now)[2], 'cpu: 10%/90%');
  });
});
