/**
 * core/v1 nodes: STATUS ROLES AGE VERSION, and wide INTERNAL-IP EXTERNAL-IP OS-IMAGE
 * KERNEL-VERSION CONTAINER-RUNTIME. STATUS is Ready/NotReady from the Ready condition (Unknown
 * without one), plus SchedulingDisabled for a cordoned node; roles come from the
 * node-role.kubernetes.io/<role> and kubernetes.io/role labels.
 */
import { compareByteOrder } from '../../../selectors/byte-order.js';
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, metadataOf, nameOf, objectAt, objectPath, objectsAt, stringAt, stringMapAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

const rolePrefix = 'node-role.kubernetes.io/';
const roleLabel = 'kubernetes.io/role';

function nodeStatus(node: Json): string {
  const conditions = objectsAt(objectAt(node, 'status'), 'conditions');
  // kube keeps the last condition of each type.
  const ready = conditions.filter((c) => stringAt(c, 'type') === 'Ready').at(-1);
  const status: string[] = [];
  if (ready) status.push(stringAt(ready, 'status') === 'True' ? 'Ready' : 'NotReady');
  else status.push('Unknown');
  if (objectAt(node, 'spec')?.unschedulable === true) status.push('SchedulingDisabled');
  return status.join(',');
}

/** The node's roles, sorted and de-duplicated, comma-joined; "<none>" without any. */
export function nodeRoles(node: Json): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(stringMapAt(metadataOf(node), 'labels'))) {
    if (key.startsWith(rolePrefix)) {
      const role = key.slice(rolePrefix.length);
      if (role !== '') roles.add(role);
    } else if (key === roleLabel && value !== '') roles.add(value);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort(compareByteOrder).join(',');
}

function firstAddress(node: Json, type: string): string {
  const address = objectsAt(objectAt(node, 'status'), 'addresses').find((a) => stringAt(a, 'type') === type);
  return address ? stringAt(address, 'address') : '<none>';
}

function orUnknown(s: string): string {
  return s === '' ? '<unknown>' : s;
}

/** core/v1 nodes. */
export const nodePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Whether the node is ready, and whether scheduling onto it is disabled.'),
    column('Roles', 'string', 'The roles the node labels declare.'),
    ageColumn,
    column('Version', 'string', 'The kubelet version the node reports.'),
    column('Internal-IP', 'string', 'The first internal IP address of the node.', 1),
    column('External-IP', 'string', 'The first external IP address of the node.', 1),
    column('OS-Image', 'string', 'The operating system image the node reports.', 1),
    column('Kernel-Version', 'string', 'The kernel version the node reports.', 1),
    column('Container-Runtime', 'string', 'The container runtime and version the node reports.', 1),
  ],
  cells(node, now) {
    const info = objectPath(node, 'status', 'nodeInfo');
    return [
      nameOf(node),
      nodeStatus(node),
      nodeRoles(node),
      creationAge(node, now),
      stringAt(info, 'kubeletVersion'),
      firstAddress(node, 'InternalIP'),
      firstAddress(node, 'ExternalIP'),
      orUnknown(stringAt(info, 'osImage')),
      orUnknown(stringAt(info, 'kernelVersion')),
      orUnknown(stringAt(info, 'containerRuntimeVersion')),
    ];
  },
};
