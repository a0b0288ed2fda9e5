/**
 * kube-apiserver's apiVersionPriorities: the groupPriorityMinimum and versionPriority of the local
 * APIService it registers for each built-in group version (the generic control plane's table
 * merged with kube-apiserver's own). A served group version missing here gets no APIService, as
 * in kube (an entry could otherwise outlive a CRD of the same group version).
 */

/** A group version's discovery priorities. */
export interface APIServicePriority {
  readonly group: number;
  readonly version: number;
}

const table: ReadonlyArray<readonly [string, string, number, number]> = [
  ['', 'v1', 18000, 1],
  ['events.k8s.io', 'v1', 17750, 15],
  ['events.k8s.io', 'v1beta1', 17750, 5],
  ['authentication.k8s.io', 'v1', 17700, 15],
  ['authentication.k8s.io', 'v1beta1', 17700, 9],
  ['authentication.k8s.io', 'v1alpha1', 17700, 1],
  ['authorization.k8s.io', 'v1', 17600, 15],
  ['certificates.k8s.io', 'v1', 17300, 15],
  ['certificates.k8s.io', 'v1beta1', 17300, 9],
  ['certificates.k8s.io', 'v1alpha1', 17300, 1],
  ['rbac.authorization.k8s.io', 'v1', 17000, 15],
  ['apiextensions.k8s.io', 'v1', 16700, 15],
  ['admissionregistration.k8s.io', 'v1', 16700, 15],
  ['admissionregistration.k8s.io', 'v1beta1', 16700, 12],
  ['admissionregistration.k8s.io', 'v1alpha1', 16700, 9],
  ['coordination.k8s.io', 'v1', 16500, 15],
  ['coordination.k8s.io', 'v1beta1', 16500, 13],
  ['coordination.k8s.io', 'v1alpha2', 16500, 12],
  ['discovery.k8s.io', 'v1', 16200, 15],
  ['discovery.k8s.io', 'v1beta1', 16200, 12],
  ['flowcontrol.apiserver.k8s.io', 'v1', 16100, 21],
  ['flowcontrol.apiserver.k8s.io', 'v1beta3', 16100, 18],
  ['flowcontrol.apiserver.k8s.io', 'v1beta2', 16100, 15],
  ['flowcontrol.apiserver.k8s.io', 'v1beta1', 16100, 12],
  ['flowcontrol.apiserver.k8s.io', 'v1alpha1', 16100, 9],
  ['internal.apiserver.k8s.io', 'v1alpha1', 16000, 9],
  ['storagemigration.k8s.io', 'v1alpha1', 15800, 9],
  ['apps', 'v1', 17800, 15],
  ['autoscaling', 'v1', 17500, 15],
  ['autoscaling', 'v2', 17500, 30],
  ['autoscaling', 'v2beta1', 17500, 9],
  ['autoscaling', 'v2beta2', 17500, 1],
  ['batch', 'v1', 17400, 15],
  ['batch', 'v1beta1', 17400, 9],
  ['batch', 'v2alpha1', 17400, 9],
  ['networking.k8s.io', 'v1', 17200, 15],
  ['networking.k8s.io', 'v1beta1', 17200, 9],
  ['policy', 'v1', 17100, 15],
  ['policy', 'v1beta1', 17100, 9],
  ['storage.k8s.io', 'v1', 16800, 15],
  ['storage.k8s.io', 'v1beta1', 16800, 9],
  ['storage.k8s.io', 'v1alpha1', 16800, 1],
  ['scheduling.k8s.io', 'v1', 16600, 15],
  ['node.k8s.io', 'v1', 16300, 15],
  ['node.k8s.io', 'v1alpha1', 16300, 1],
  ['node.k8s.io', 'v1beta1', 16300, 9],
  ['resource.k8s.io', 'v1beta2', 16200, 15],
  ['resource.k8s.io', 'v1beta1', 16200, 9],
  ['resource.k8s.io', 'v1alpha3', 16200, 1],
];

const byGroupVersion = new Map<string, APIServicePriority>(table.map(([g, v, group, version]) => [`${g}/${v}`, { group, version }]));

/** The built-in priorities of group/version, or undefined when kube registers no APIService for it. */
export function builtinPriority(group: string, version: string): APIServicePriority | undefined {
  return byGroupVersion.get(`${group}/${version}`);
}

/** kube's crdRegistrationController priorities: every CRD group ranks below the built-ins. */
export const crdPriority: APIServicePriority = { group: 1000, version: 100 };

/** The name of a group version's APIService: "<version>.<group>" ("v1." for the core group). */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}
