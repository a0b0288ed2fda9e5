/** Admission attributes for plugin unit tests: a request of operation on group/resource with the given objects. */
import type { KubeObject } from '../../../api/meta/types.js';
import type { AdmissionAttributes, AdmissionOperation } from '../interface.js';

/** What a test request sets; everything else takes a plain default. */
export interface TestRequest {
  readonly operation?: AdmissionOperation;
  readonly group?: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly dryRun?: boolean;
  readonly user?: string;
}

/** Builds the attributes of a test request. */
export function testAttributes(r: TestRequest): AdmissionAttributes {
  return {
    operation: r.operation ?? 'CREATE',
    group: r.group ?? '',
    version: 'v1',
    resource: r.resource,
    subresource: r.subresource ?? '',
    kind: r.kind ?? '',
    namespace: r.namespace ?? 'ns',
    name: r.name ?? r.object?.metadata.name ?? '',
    object: r.object,
    oldObject: r.oldObject,
    dryRun: r.dryRun ?? false,
    userInfo: { name: r.user ?? 'alice', groups: [] },
    addAnnotation: () => undefined,
  };
}
