/**
 * Pods: the column definitions and kube's printPod cells, from the cases of kube's
 * printers_test.go (TestPrintPod, TestPrintPodWithRestartableInitContainer, TestPrintPodwide,
 * TestPrintPodConditions) translated to v1 JSON, plus the remaining STATUS branches.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podPrinter } from './pods.js';
import { ago, columnSpec, day, minute, now } from './testing.js';

type J = Record<string, unknown>;

/** A pod with n unnamed containers and the given status (no creationTimestamp: Age <unknown>). */
function pod(name: string, status: J, spec: J = { containers: [{}, {}] }, metadata: J = {}): J {
  return { metadata: { name, ...metadata }, spec, status };
}

/** The five standard cells. */
function cells(p: J): unknown[] {
  return podPrinter.cells(p, now).slice(0, 5);
}

const running = { running: { startedAt: ago(day) } };
const restartedAgo = (seconds: number): J => ({ terminated: { exitCode: 1, finishedAt: ago(seconds) } });
const sidecars = (...names: string[]): J[] => names.map((name) => ({ name, restartPolicy: 'Always' }));

describe('pod columns', () => {
  it('match kube: five columns, four wide ones', () => {
    assert.deepEqual(columnSpec(podPrinter), [
      ['Name', 'string', 'name', 0],
      ['Ready', 'string', '', 0],
      ['Status', 'string', '', 0],
      ['Restarts', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['IP', 'string', '', 1],
      ['Node', 'string', '', 1],
      ['Nominated Node', 'string', '', 1],
      ['Readiness Gates', 'string', '', 1],
    ]);
  });
});

describe('pod status (kube TestPrintPod)', () => {
  it('counts ready running containers and sums restarts', () => {
    const p = pod('test1', { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] });
    assert.deepEqual(cells(p), ['test1', '1/2', 'podPhase', '6', '<unknown>']);
  });
  it('lets a waiting reason override the phase', () => {
    const p = pod('test2', {
      phase: 'podPhase',
      containerStatuses: [
        { ready: true, restartCount: 3, state: running },
        { restartCount: 3, state: { waiting: { reason: 'ContainerWaitingReason' } } },
      ],
    });
    assert.deepEqual(cells(p), ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>']);
  });
  it('lets the first container win (they are walked last to first)', () => {
    const p = pod('test3', {
      phase: 'podPhase',
      containerStatuses: [
        { restartCount: 3, state: { waiting: { reason: 'ContainerWaitingReason' } } },
        { restartCount: 3, state: { terminated: { reason: 'ContainerTerminatedReason' } } },
      ],
    });
    assert.deepEqual(cells(p), ['test3', '0/2', 'ContainerWaitingReason', '6', '<unknown>']);
  });
  it('does not count a ready container that is not running', () => {
    const p = pod('test4', { phase: 'podPhase', containerStatuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }] });
    assert.deepEqual(cells(p), ['test4', '1/2', 'podPhase', '6', '<unknown>']);
  });
  it('prefers status.reason to the phase', () => {
    const p = pod('test5', {
      reason: 'podReason',
      phase: 'podPhase',
      containerStatuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }],
    });
    assert.deepEqual(cells(p), ['test5', '1/2', 'podReason', '6', '<unknown>']);
  });
  it('turns Completed with a running container into NotReady, or Running when the pod is Ready', () => {
    const status = {
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 3, state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        { ready: true, restartCount: 3, state: running },
      ],
    };
    assert.deepEqual(cells(pod('test6', status)), ['test6', '1/2', 'NotReady', '6', '<unknown>']);
    const ready = { ...status, conditions: [{ type: 'Ready', status: 'True' }] };
    assert.deepEqual(cells(pod('test6', ready)), ['test6', '1/2', 'Running', '6', '<unknown>']);
  });
  it('shows Init:0/1 for a restarting init container, with the age of its last restart', () => {
    const p = pod(
      'test7',
      {
        phase: 'podPhase',
        initContainerStatuses: [{ ready: false, restartCount: 3, state: running, lastState: restartedAgo(10) }],
        containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
      },
      { initContainers: [{}], containers: [{}] },
    );
    assert.deepEqual(cells(p), ['test7', '0/1', 'Init:0/1', '3 (10s ago)', '<unknown>']);
  });
  it('counts all init containers in Init:i/n', () => {
    const p = pod(
      'test8',
      {
        phase: 'podPhase',
        initContainerStatuses: [
          { ready: false, restartCount: 3, state: running, lastState: restartedAgo(10) },
          { ready: false, state: { waiting: {} } },
        ],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      },
      { initContainers: [{}, {}], containers: [{}] },
    );
    assert.deepEqual(cells(p), ['test8', '0/1', 'Init:0/2', '3 (10s ago)', '<unknown>']);
  });
  it('passes over an init container that exited 0', () => {
    const p = pod(
      'test9',
      {
        phase: 'podPhase',
        initContainerStatuses: [
          { ready: false, state: { terminated: {} } },
          { ready: false, restartCount: 3, state: running, lastState: restartedAgo(10) },
        ],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      },
      { initContainers: [{}, {}], containers: [{}] },
    );
    assert.deepEqual(cells(p), ['test9', '0/1', 'Init:1/2', '3 (10s ago)', '<unknown>']);
  });
  it('sums the restarts of every init container while initializing', () => {
    const p = pod(
      'test10',
      {
        phase: 'podPhase',
        initContainerStatuses: [
          { ready: false, restartCount: 2, state: { terminated: {} }, lastState: restartedAgo(2 * minute) },
          { ready: false, restartCount: 3, state: running, lastState: restartedAgo(10) },
        ],
        containerStatuses: [{ ready: false, state: { waiting: {} } }],
      },
      { initContainers: [{}, {}], containers: [{}] },
    );
    assert.deepEqual(cells(p), ['test10', '0/1', 'Init:1/2', '5 (10s ago)', '<unknown>']);
  });
  it('forgets the restarts of finished init containers once initialized', () => {
    const p = pod(
      'test11',
      {
        phase: 'Running',
        initContainerStatuses: [{ ready: false, restartCount: 2, state: { terminated: {} }, lastState: restartedAgo(2 * minute) }],
        containerStatuses: [{ ready: false, restartCount: 4, state: running, lastState: restartedAgo(20) }],
      },
      { initContainers: [{}], containers: [{}] },
    );
    assert.deepEqual(cells(p), ['test11', '0/1', 'Running', '4 (20s ago)', '<unknown>']);
  });
  it('takes the latest restart among the containers', () => {
    const one = pod('test12', { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 3, state: running, lastState: restartedAgo(5 * day) }] }, { containers: [{}] });
    assert.deepEqual(cells(one), ['test12', '1/1', 'Running', '3 (5d ago)', '<unknown>']);
    const two = pod('test13', {
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 0, state: running },
        { ready: true, restartCount: 3, state: running, lastState: restartedAgo(10 * day) },
      ],
    });
    assert.deepEqual(cells(two), ['test13', '2/2', 'Running', '3 (10d ago)', '<unknown>']);
    const both = pod('test14', {
      phase: 'Running',
      containerStatuses: [
        { ready: true, restartCount: 6, state: running, lastState: restartedAgo(5 * day) },
        { ready: true, restartCount: 3, state: running, lastState: restartedAgo(20 * day) },
      ],
    });
    assert.deepEqual(cells(both), ['test14', '2/2', 'Running', '9 (5d ago)', '<unknown>']);
  });
  it('shows SchedulingGated from the PodScheduled condition', () => {
    const p = pod('test15', { phase: 'podPhase', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] });
    assert.deepEqual(cells(p), ['test15', '0/2', 'SchedulingGated', '0', '<unknown>']);
  });
  it('shows Completed and Error of finished pods, with the Completed row condition', () => {
    const done = pod('test16', { phase: 'Succeeded', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }, { containers: [{}] });
    assert.deepEqual(cells(done), ['test16', '0/1', 'Completed', '0', '<unknown>']);
    assert.deepEqual(podPrinter.rowConditions?.(done), [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    const failed = pod('test17', { phase: 'Failed', containerStatuses: [{ ready: false, restartCount: 0, state: { terminated: { reason: 'Error', exitCode: 1 } } }] }, { containers: [{}] });
    assert.deepEqual(cells(failed), ['test17', '0/1', 'Error', '0', '<unknown>']);
    assert.deepEqual(podPrinter.rowConditions?.(failed), [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }]);
    assert.equal(podPrinter.rowConditions?.(pod('r', { phase: 'Running' })), undefined);
  });
  it('shows Terminating for a deleted pod unless its phase is terminal', () => {
    const deleted = { deletionTimestamp: ago(10) };
    const done = pod('test18', { phase: 'Succeeded', containerStatuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }, { containers: [{}] }, deleted);
    assert.deepEqual(cells(done), ['test18', '0/1', 'Completed', '0', '<unknown>']);
    const runningPod = pod('test19', { phase: 'Running', containerStatuses: [{ ready: false, state: running }] }, { containers: [{}] }, deleted);
    assert.deepEqual(cells(runningPod), ['test19', '0/1', 'Terminating', '0', '<unknown>']);
    const pending = pod('test20', { phase: 'Pending' }, { containers: [{}] }, deleted);
    assert.deepEqual(cells(pending), ['test20', '0/1', 'Terminating', '0', '<unknown>']);
  });
  it('shows Unknown for a deleted pod whose node was lost', () => {
    const p = pod('lost', { phase: 'Running', reason: 'NodeLost', containerStatuses: [{ ready: true, state: running }] }, { containers: [{}] }, { deletionTimestamp: ago(10) });
    assert.deepEqual(cells(p), ['lost', '1/1', 'Unknown', '0', '<unknown>']);
  });
});

describe('pod status: the other init and container branches', () => {
  const oneInit = { initContainers: [{ name: 'init' }], containers: [{ name: 'app' }] };
  const initStatus = (state: J, extra: J = {}): J => ({ phase: 'Pending', initContainerStatuses: [{ name: 'init', state, ...extra }], containerStatuses: [{ name: 'app', state: { waiting: { reason: 'PodInitializing' } } }] });
  it('prints an init container that failed with its reason, signal or exit code', () => {
    assert.equal(cells(pod('p', initStatus({ terminated: { reason: 'Error', exitCode: 1 } }), oneInit))[2], 'Init:Error');
    assert.equal(cells(pod('p', initStatus({ terminated: { exitCode: 137, signal: 9 } }), oneInit))[2], 'Init:Signal:9');
    assert.equal(cells(pod('p', initStatus({ terminated: { exitCode: 2 } }), oneInit))[2], 'Init:ExitCode:2');
  });
  it('prints an init container waiting for a reason, but not for PodInitializing', () => {
    const crash = initStatus({ waiting: { reason: 'CrashLoopBackOff' } }, { restartCount: 4, lastState: restartedAgo(90) });
    assert.deepEqual(cells(pod('p', crash, oneInit)), ['p', '0/1', 'Init:CrashLoopBackOff', '4 (90s ago)', '<unknown>']);
    assert.equal(cells(pod('p', initStatus({ waiting: { reason: 'PodInitializing' } }), oneInit))[2], 'Init:0/1');
  });
  it('prints a container that exited without a reason by signal or exit code', () => {
    assert.equal(cells(pod('p', { phase: 'Running', containerStatuses: [{ state: { terminated: { exitCode: 143, signal: 15 } } }] }, { containers: [{}] }))[2], 'Signal:15');
    assert.equal(cells(pod('p', { phase: 'Running', containerStatuses: [{ state: { terminated: { exitCode: 3 } } }] }, { containers: [{}] }))[2], 'ExitCode:3');
  });
  it('shows CrashLoopBackOff with the restart age in minutes and seconds', () => {
    const p = pod(
      'crash',
      { phase: 'Running', containerStatuses: [{ name: 'app', ready: false, restartCount: 7, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: restartedAgo(5 * minute + 30) }] },
      { containers: [{ name: 'app' }] },
      { creationTimestamp: ago(3 * day + 4 * 3600) },
    );
    assert.deepEqual(cells(p), ['crash', '0/1', 'CrashLoopBackOff', '7 (5m30s ago)', '3d4h']);
  });
  it('prints restarts without an age when no last termination is recorded', () => {
    const p = pod('p', { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 2, state: running }] }, { containers: [{}] });
    assert.equal(cells(p)[3], '2');
  });
  it('prints the pod name and an Age from creationTimestamp', () => {
    const p = pod('web-0', { phase: 'Running' }, { containers: [{}] }, { creationTimestamp: ago(90) });
    assert.deepEqual(cells(p), ['web-0', '0/1', 'Running', '0', '90s']);
  });
});

describe('pod status with restartable init containers (kube TestPrintPodWithRestartableInitContainer)', () => {
  const spec = { initContainers: sidecars('restartable-init-1', 'restartable-init-2'), containers: [{}] };
  it('counts a sidecar that runs but has not started as initializing', () => {
    const p = pod(
      'test1',
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: running, started: false, lastState: restartedAgo(10) },
          { name: 'restartable-init-2', ready: false, state: { waiting: {} }, started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
        conditions: [{ type: 'Initialized', status: 'False' }],
      },
      spec,
    );
    assert.deepEqual(cells(p), ['test1', '0/3', 'Init:0/2', '3 (10s ago)', '<unknown>']);
  });
  it('passes over a started sidecar', () => {
    const p = pod(
      'test1',
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: running, started: true, lastState: restartedAgo(10) },
          { name: 'restartable-init-2', ready: false, state: running, started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 0, state: { waiting: {} } }],
        conditions: [{ type: 'Initialized', status: 'False' }],
      },
      spec,
    );
    assert.deepEqual(cells(p), ['test1', '0/3', 'Init:1/2', '3 (10s ago)', '<unknown>']);
  });
  it('counts ready sidecars in READY and their restarts in RESTARTS once initialized', () => {
    const p = pod(
      'test2',
      {
        phase: 'Running',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: running, started: true, lastState: restartedAgo(10) },
          { name: 'restartable-init-2', ready: true, state: running, started: true },
        ],
        containerStatuses: [{ ready: true, restartCount: 4, state: running, lastState: restartedAgo(20) }],
        conditions: [{ type: 'Initialized', status: 'True' }],
      },
      spec,
    );
    assert.deepEqual(cells(p), ['test2', '2/3', 'Running', '7 (10s ago)', '<unknown>']);
  });
  it('shows Completed for a succeeded pod whose sidecars were killed', () => {
    const p = pod(
      'test3',
      {
        phase: 'Succeeded',
        initContainerStatuses: [
          { name: 'restartable-init-1', ready: false, restartCount: 3, state: { terminated: { reason: 'Error', exitCode: 137 } }, started: false, lastState: restartedAgo(10) },
          { name: 'restartable-init-2', ready: false, state: { terminated: { reason: 'Error', exitCode: 137 } }, started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 4, state: { terminated: { reason: 'Completed', exitCode: 0 } }, lastState: restartedAgo(20) }],
        conditions: [{ type: 'Initialized', status: 'True' }],
      },
      spec,
    );
    assert.deepEqual(cells(p), ['test3', '0/3', 'Completed', '7 (10s ago)', '<unknown>']);
  });
  it('treats statuses of containers the spec lacks as plain init containers', () => {
    const p = pod(
      'test4',
      {
        phase: 'Running',
        initContainerStatuses: [{ name: 'initinvalid' }, { name: 'init1' }, { name: 'sidecar1' }],
        containerStatuses: [{ name: 'containerinvalid' }, { name: 'container1' }],
      },
      {
        initContainers: [{ name: 'init1', image: 'initimage' }, { name: 'sidecar1', image: 'sidecarimage', restartPolicy: 'Always' }],
        containers: [{ name: 'container1', image: 'containerimage' }],
      },
    );
    assert.deepEqual(cells(p), ['test4', '0/2', 'Init:0/2', '0', '<unknown>']);
  });
});

describe('pod wide cells (kube TestPrintPodwide)', () => {
  const gates = { containers: [{}, {}], nodeName: 'test1', readinessGates: [{ conditionType: 'condition1' }, { conditionType: 'condition2' }, { conditionType: 'condition3' }] };
  const status = {
    conditions: [
      { type: 'condition1', status: 'False' },
      { type: 'condition2', status: 'True' },
    ],
    phase: 'podPhase',
    podIPs: [{ ip: '1.1.1.1' }, { ip: '2001:db8::' }],
    containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }],
    nominatedNodeName: 'node1',
  };
  it('prints the first IP, the node, the nominated node and true readiness gates', () => {
    assert.deepEqual(podPrinter.cells(pod('test1', status, gates), now), ['test1', '1/2', 'podPhase', '6', '<unknown>', '1.1.1.1', 'test1', 'node1', '1/3']);
  });
  it('prefers status.podIP, as kube converts it', () => {
    assert.equal(podPrinter.cells(pod('p', { podIP: '10.0.0.7', podIPs: [{ ip: '10.0.0.7' }] }, gates), now)[5], '10.0.0.7');
  });
  it('prints <none> for what is not there', () => {
    const p = pod('test2', {
      phase: 'podPhase',
      containerStatuses: [{ ready: true, restartCount: 3, state: running }, { state: { waiting: { reason: 'ContainerWaitingReason' } }, restartCount: 3 }],
    });
    assert.deepEqual(podPrinter.cells(p, now), ['test2', '1/2', 'ContainerWaitingReason', '6', '<unknown>', '<none>', '<none>', '<none>', '<none>']);
  });
});
