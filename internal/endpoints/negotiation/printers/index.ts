/**
 * Server-side Table printers: which columns and cells a resource gets when a client asks for
 * `application/json;as=Table`, as kube-apiserver 1.33 answers (kubectl prints them verbatim).
 * Resources kube prints with its default two columns (Name, Created At), among them roles,
 * clusterroles and customresourcedefinitions, have no printer here, and neither do subresources
 * other than status, which kube serves with the parent's printer.
 */
import { apiServicePrinter } from './apiregistration.js';
import { cronJobPrinter, jobPrinter } from './batch.js';
import { configMapPrinter, namespacePrinter, secretPrinter, serviceAccountPrinter } from './core-config.js';
import { leasePrinter } from './coordination.js';
import { endpointSlicePrinter, endpointsPrinter } from './endpoints.js';
import { eventPrinter } from './events.js';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from './flowcontrol.js';
import { hpaPrinter } from './hpa.js';
import { ingressPrinter } from './networking.js';
import { nodePrinter } from './nodes.js';
import { podPrinter } from './pods.js';
import { podDisruptionBudgetPrinter, priorityClassPrinter } from './policy.js';
import { resourceQuotaPrinter } from './quota.js';
import { clusterRoleBindingPrinter, roleBindingPrinter } from './rbac.js';
import { servicePrinter } from './services.js';
import { persistentVolumeClaimPrinter, persistentVolumePrinter, storageClassPrinter } from './storage.js';
import type { TablePrinter } from './types.js';
import { daemonSetPrinter, deploymentPrinter, replicaSetPrinter, statefulSetPrinter } from './workloads.js';

export type { TableColumn, TablePrinter, TableRowCondition } from './types.js';

const hpaV1 = hpaPrinter(true);
const hpaV2 = hpaPrinter(false);

/** Printers by "group/resource" (the core group is ""); the same for every version of the resource. */
const byGroupResource: ReadonlyMap<string, TablePrinter> = new Map<string, TablePrinter>([
  ['/pods', podPrinter],
  ['/services', servicePrinter],
  ['/endpoints', endpointsPrinter],
  ['/nodes', nodePrinter],
  ['/namespaces', namespacePrinter],
  ['/configmaps', configMapPrinter],
  ['/secrets', secretPrinter],
  ['/serviceaccounts', serviceAccountPrinter],
  ['/events', eventPrinter(false)],
  ['/persistentvolumes', persistentVolumePrinter],
  ['/persistentvolumeclaims', persistentVolumeClaimPrinter],
  ['/resourcequotas', resourceQuotaPrinter],
  ['apps/deployments', deploymentPrinter],
  ['apps/replicasets', replicaSetPrinter],
  ['apps/statefulsets', statefulSetPrinter],
  ['apps/daemonsets', daemonSetPrinter],
  ['batch/jobs', jobPrinter],
  ['batch/cronjobs', cronJobPrinter],
  ['discovery.k8s.io/endpointslices', endpointSlicePrinter],
  ['events.k8s.io/events', eventPrinter(true)],
  ['coordination.k8s.io/leases', leasePrinter],
  ['networking.k8s.io/ingresses', ingressPrinter],
  ['storage.k8s.io/storageclasses', storageClassPrinter],
  ['rbac.authorization.k8s.io/rolebindings', roleBindingPrinter],
  ['rbac.authorization.k8s.io/clusterrolebindings', clusterRoleBindingPrinter],
  ['policy/poddisruptionbudgets', podDisruptionBudgetPrinter],
  ['scheduling.k8s.io/priorityclasses', priorityClassPrinter],
  ['apiregistration.k8s.io/apiservices', apiServicePrinter],
  ['flowcontrol.apiserver.k8s.io/flowschemas', flowSchemaPrinter],
  ['flowcontrol.apiserver.k8s.io/prioritylevelconfigurations', priorityLevelConfigurationPrinter],
]);

/**
 * The printer for a resource in a group/version, or undefined for the default two columns.
 * resource is the plural resource name without a subresource. Pure; printers are shared.
 */
export function printerFor(group: string, version: string, resource: string): TablePrinter | undefined {
  if (group === 'autoscaling' && resource === 'horizontalpodautoscalers') return version === 'v1' ? hpaV1 : hpaV2;
  return byGroupResource.get(`${group}/${resource}`);
}
