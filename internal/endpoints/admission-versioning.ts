/**
 * An endpoint's version as admission sees it (kube's versioned attributes): conversions between
 * the stored form and the endpoint's version, and its defaulting. One per endpoint, made on first
 * use, so admission attributes only point at it.
 */
import type { AdmissionVersioning } from '../admission/interface.js';
import { toExternal, toInternal, type ResourceScope } from './scope.js';

const versionings = new WeakMap<ResourceScope, AdmissionVersioning>();

/** The AdmissionVersioning of scope. */
export function admissionVersioning(scope: ResourceScope): AdmissionVersioning {
  let v = versionings.get(scope);
  if (!v) {
    v = {
      apiVersion: scope.apiVersion,
      kind: scope.kind,
      toExternal: (obj) => toExternal(scope, obj),
      toInternal: (obj) => toInternal(scope, obj),
      defaults: (obj) => scope.defaulter?.(obj),
    };
    versionings.set(scope, v);
  }
  return v;
}
