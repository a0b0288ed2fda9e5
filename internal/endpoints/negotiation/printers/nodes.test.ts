/** core/v1 nodes: columns and cells as kube prints them (cf. kube's TestPrintNode* cases). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodePrinter } from './nodes.js';
import { ago, columnSpec, day, now } from './testing.js';

type J = Record<string, unknown>;

function node(metadata: J, spec: J, status: J): J {
  return { metadata: { name: 'node-1', ...metadata }, spec, status };
}

describe('nodes', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(nodePrinter), [
      ['Name', 'string', 'name', 0],
      ['Status', 'string', '', 0],
      ['Roles', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Version', 'string', '', 0],
      ['Internal-IP', 'string', '', 1],
      ['External-IP', 'string', '', 1],
      ['OS-Image', 'string', '', 1],
      ['Kernel-Version', 'string', '', 1],
      ['Container-Runtime', 'string', '', 1],
    ]);
  });
  it('print a ready control-plane node with its system info', () => {
    const n = node(
      { creationTimestamp: ago(30 * day), labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/os': 'linux' } },
      {},
      {
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
        addresses: [
          { type: 'Hostname', address: 'node-1' },
          { type: 'InternalIP', address: '172.18.0.2' },
        ],
        nodeInfo: { kubeletVersion: 'v1.33.0', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0-18-amd64', containerRuntimeVersion: 'containerd://1.7.13' },
      },
    );
    assert.deepEqual(nodePrinter.cells(n, now), [
      'node-1',
      'Ready',
      'control-plane',
      '30d',
      'v1.33.0',
      '172.18.0.2',
      '<none>',
      'Debian GNU/Linux 12 (bookworm)',
      '6.1.0-18-amd64',
      'containerd://1.7.13',
    ]);
  });
  it('print NotReady, Unknown and SchedulingDisabled', () => {
    assert.equal(nodePrinter.cells(node({}, {}, { conditions: [{ type: 'Ready', status: 'Unknown' }] }), now)[1], 'NotReady');
    assert.equal(nodePrinter.cells(node({}, { unschedulable: true }, { conditions: [{ type: 'Ready', status: 'True' }] }), now)[1], 'Ready,SchedulingDisabled');
    assert.equal(nodePrinter.cells(node({}, { unschedulable: true }, {}), now)[1], 'Unknown,SchedulingDisabled');
    // The last Ready condition wins, as in kube's condition map.
    assert.equal(nodePrinter.cells(node({}, {}, { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Ready', status: 'False' }] }), now)[1], 'NotReady');
  });
  it('collect roles from both label forms, sorted and de-duplicated', () => {
    const labels = { 'node-role.kubernetes.io/worker': '', 'node-role.kubernetes.io/': 'x', 'kubernetes.io/role': 'ingress', 'node-role.kubernetes.io/ingress': 'true' };
    assert.equal(nodePrinter.cells(node({ labels }, {}, {}), now)[2], 'ingress,worker');
    assert.equal(nodePrinter.cells(node({ labels: { 'kubernetes.io/role': '' } }, {}, {}), now)[2], '<none>');
  });
  it('print the first address of each type and <unknown> for missing system info (kube TestPrintNodeInternalIP)', () => {
    const n = node({}, {}, { addresses: [{ type: 'InternalIP', address: '2.2.2.2' }, { type: 'ExternalIP', address: '3.3.3.3' }, { type: 'InternalIP', address: '4.4.4.4' }] });
    assert.deepEqual(nodePrinter.cells(n, now), ['node-1', 'Unknown', '<none>', '<unknown>', '', '2.2.2.2', '3.3.3.3', '<unknown>', '<unknown>', '<unknown>']);
  });
});
