/**
 * The shape of the generated API facts (api/gen/resources.ts): what kube-apiserver 1.33 serves,
 * per group version and resource, as discovery reports it.
 */

/** A subresource of a resource, e.g. deployments/scale (kind Scale in autoscaling/v1). */
export interface GeneratedSubresource {
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly verbs: readonly string[];
}

/** One resource in one group version. */
export interface GeneratedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly singularName: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly string[];
  readonly storageVersionHash?: string;
  readonly subresources: readonly GeneratedSubresource[];
}

/** One API group with its versions. */
export interface GeneratedGroup {
  readonly group: string;
  readonly versions: readonly string[];
  readonly preferredVersion: string;
}
