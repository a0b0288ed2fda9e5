/** Admission attributes for plugin unit tests: a request with every field defaulted. */
import type { AdmissionAttributes } from '../../interface.js';

/** Attributes of a CREATE of configmaps in "default" by user "u", overridden by over. */
export function testAttributes(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'configmaps',
    subresource: '',
    kind: 'ConfigMap',
    namespace: 'default',
    name: 'x',
    object: undefined,
    oldObject: undefined,
    dryRun: false,
    userInfo: { name: 'u', groups: [] },
    addAnnotation: () => undefined,
    ...over,
  };
}
