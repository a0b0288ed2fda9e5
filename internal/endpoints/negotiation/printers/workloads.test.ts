/** apps/v1 workloads: column definitions and cells as kube prints them (cf. kube's TestPrintDeployment and friends). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ago, columnSpec, day, now } from './testing.js';
import { daemonSetPrinter, deploymentPrinter, replicaSetPrinter, statefulSetPrinter } from './workloads.js';

const template = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'fake-container1', image: 'fake-image1' },
      { name: 'fake-container2', image: 'fake-image2' },
    ],
  },
};
const wideContainers = ['fake-container1,fake-container2', 'fake-image1,fake-image2'];

describe('deployments', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(deploymentPrinter), [
      ['Name', 'string', 'name', 0],
      ['Ready', 'string', '', 0],
      ['Up-to-date', 'string', '', 0],
      ['Available', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Containers', 'string', '', 1],
      ['Images', 'string', '', 1],
      ['Selector', 'string', '', 1],
    ]);
  });
  it('print ready/desired, up-to-date, available and the bare selector (kube TestPrintDeployment)', () => {
    const d = {
      metadata: { name: 'test1', creationTimestamp: new Date(now.getTime() + 1900).toISOString() },
      spec: { replicas: 5, template, selector: { matchLabels: { foo: 'bar' } } },
      status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4 },
    };
    assert.deepEqual(deploymentPrinter.cells(d, now), ['test1', '0/5', 2, 1, '0s', ...wideContainers, 'foo=bar']);
  });
  it('print an empty selector as nothing and an invalid one as <invalid>', () => {
    const d = (selector: unknown): Record<string, unknown> => ({ metadata: { name: 'd', creationTimestamp: ago(2 * day) }, spec: { replicas: 1, selector }, status: { readyReplicas: 1 } });
    assert.deepEqual(deploymentPrinter.cells(d(undefined), now), ['d', '1/1', 0, 0, '2d', '', '', '']);
    assert.equal(deploymentPrinter.cells(d({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }), now)[7], '<invalid>');
  });
});

describe('replicasets', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(replicaSetPrinter), [
      ['Name', 'string', 'name', 0],
      ['Desired', 'integer', '', 0],
      ['Current', 'integer', '', 0],
      ['Ready', 'integer', '', 0],
      ['Age', 'string', '', 0],
      ['Containers', 'string', '', 1],
      ['Images', 'string', '', 1],
      ['Selector', 'string', '', 1],
    ]);
  });
  it('print desired, current and ready counts', () => {
    const rs = {
      metadata: { name: 'web-5d8f', creationTimestamp: ago(3600) },
      spec: { replicas: 3, template, selector: { matchLabels: { app: 'web', 'pod-template-hash': '5d8f' } } },
      status: { replicas: 3, readyReplicas: 2 },
    };
    assert.deepEqual(replicaSetPrinter.cells(rs, now), ['web-5d8f', 3, 3, 2, '60m', ...wideContainers, 'app=web,pod-template-hash=5d8f']);
  });
  it('print a missing selector as <none>', () => {
    assert.equal(replicaSetPrinter.cells({ metadata: { name: 'x' } }, now)[7], '<none>');
  });
});

describe('statefulsets', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(statefulSetPrinter), [
      ['Name', 'string', 'name', 0],
      ['Ready', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Containers', 'string', '', 1],
      ['Images', 'string', '', 1],
    ]);
  });
  it('print ready/desired', () => {
    const sts = { metadata: { name: 'db', creationTimestamp: ago(10 * day) }, spec: { replicas: 3, template }, status: { replicas: 3, readyReplicas: 1 } };
    assert.deepEqual(statefulSetPrinter.cells(sts, now), ['db', '1/3', '10d', ...wideContainers]);
  });
});

describe('daemonsets', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(daemonSetPrinter), [
      ['Name', 'string', 'name', 0],
      ['Desired', 'integer', '', 0],
      ['Current', 'integer', '', 0],
      ['Ready', 'integer', '', 0],
      ['Up-to-date', 'integer', '', 0],
      ['Available', 'integer', '', 0],
      ['Node Selector', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Containers', 'string', '', 1],
      ['Images', 'string', '', 1],
      ['Selector', 'string', '', 1],
    ]);
  });
  it('print the scheduling counts and the node selector', () => {
    const ds = {
      metadata: { name: 'agent', creationTimestamp: ago(200) },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'agent', image: 'agent:1' }] } },
      },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    };
    assert.deepEqual(daemonSetPrinter.cells(ds, now), ['agent', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '3m20s', 'agent', 'agent:1', 'app=agent']);
  });
  it('print <none> without a node selector', () => {
    assert.equal(daemonSetPrinter.cells({ metadata: { name: 'x' }, spec: { template: { spec: {} } } }, now)[6], '<none>');
  });
});
