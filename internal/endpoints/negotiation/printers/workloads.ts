/**
 * The apps/v1 workloads: deployments (READY UP-TO-DATE AVAILABLE), replicasets (DESIRED CURRENT
 * READY), statefulsets (READY) and daemonsets (DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE
 * SELECTOR), each with the wide Containers, Images and (but statefulsets) Selector columns.
 */
import { creationAge as age } from './ages.js';
import { ageColumn, column, containersColumn, imagesColumn, nameColumn, selectorColumn } from './columns.js';
import { intAt, nameOf, objectAt, stringMapAt } from './json-fields.js';
import { formatLabelSelector, formatLabels, labelSelectorString } from './labels.js';
import { podTemplateSpec, templateContainerCells } from './pod-template.js';
import type { TablePrinter } from './types.js';

/** apps/v1 deployments. */
export const deploymentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready pods over the desired number of pods.'),
    column('Up-to-date', 'string', 'Pods that run the latest pod template.'),
    column('Available', 'string', 'Pods that have been ready for at least minReadySeconds.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn(),
  ],
  cells(obj, now) {
    const spec = objectAt(obj, 'spec');
    const status = objectAt(obj, 'status');
    // A Deployment prints its selector bare: "" when it selects everything or nothing.
    const selector = labelSelectorString(spec?.selector) ?? '<invalid>';
    return [
      nameOf(obj),
      `${intAt(status, 'readyReplicas')}/${intAt(spec, 'replicas')}`,
      intAt(status, 'updatedReplicas'),
      intAt(status, 'availableReplicas'),
      age(obj, now),
      ...templateContainerCells(podTemplateSpec(obj, 'spec')),
      selector,
    ];
  },
};

/** apps/v1 replicasets. */
export const replicaSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'The number of pods the replica set should run.'),
    column('Current', 'integer', 'The number of pods the replica set runs now.'),
    column('Ready', 'integer', 'Pods that pass their readiness checks.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn(),
  ],
  cells(obj, now) {
    const spec = objectAt(obj, 'spec');
    const status = objectAt(obj, 'status');
    return [
      nameOf(obj),
      intAt(spec, 'replicas'),
      intAt(status, 'replicas'),
      intAt(status, 'readyReplicas'),
      age(obj, now),
      ...templateContainerCells(podTemplateSpec(obj, 'spec')),
      formatLabelSelector(spec?.selector),
    ];
  },
};

/** apps/v1 statefulsets. */
export const statefulSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready pods over the desired number of pods.'),
    ageColumn,
    containersColumn,
    imagesColumn,
  ],
  cells(obj, now) {
    const spec = objectAt(obj, 'spec');
    const status = objectAt(obj, 'status');
    return [
      nameOf(obj),
      `${intAt(status, 'readyReplicas')}/${intAt(spec, 'replicas')}`,
      age(obj, now),
      ...templateContainerCells(podTemplateSpec(obj, 'spec')),
    ];
  },
};

/** apps/v1 daemonsets. */
export const daemonSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Nodes that should run the daemon pod.'),
    column('Current', 'integer', 'Nodes that run at least one daemon pod.'),
    column('Ready', 'integer', 'Nodes whose daemon pod is ready.'),
    column('Up-to-date', 'integer', 'Nodes whose daemon pod runs the latest pod template.'),
    column('Available', 'integer', 'Nodes whose daemon pod has been ready for at least minReadySeconds.'),
    column('Node Selector', 'string', "The pod template's node selector."),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn(),
  ],
  cells(obj, now) {
    const spec = objectAt(obj, 'spec');
    const status = objectAt(obj, 'status');
    const template = podTemplateSpec(obj, 'spec');
    return [
      nameOf(obj),
      intAt(status, 'desiredNumberScheduled'),
      intAt(status, 'currentNumberScheduled'),
      intAt(status, 'numberReady'),
      intAt(status, 'updatedNumberScheduled'),
      intAt(status, 'numberAvailable'),
      formatLabels(stringMapAt(template, 'nodeSelector')),
      age(obj, now),
      ...templateContainerCells(template),
      formatLabelSelector(spec?.selector),
    ];
  },
};
