/**
 * The `request` and `namespaceObject` activation values, as kube's CreateAdmissionRequest and
 * CreateNamespaceObject build them from the admission attributes.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AdmissionAttributes } from '../../interface.js';

/** The admission request CEL sees (no object / oldObject: those are variables of their own). */
export function admissionRequest(a: AdmissionAttributes, uid: string): Record<string, unknown> {
  const kind = { group: a.group, version: a.version, kind: a.kind };
  const resource = { group: a.group, version: a.version, resource: a.resource };
  const user = a.userInfo;
  return {
    uid,
    kind,
    resource,
    subResource: a.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: a.subresource,
    name: a.name || (a.object?.metadata?.name ?? ''),
    namespace: a.namespace,
    operation: a.operation,
    userInfo: {
      username: user.name,
      ...(user.uid ? { uid: user.uid } : {}),
      ...(user.groups.length ? { groups: [...user.groups] } : {}),
      ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
    },
    dryRun: a.dryRun,
  };
}

/** The namespace as CEL sees it: metadata without managedFields and ownerReferences, spec and status. */
export function namespaceObject(ns: KubeObject | undefined): Record<string, unknown> | null {
  if (!ns) return null;
  const m = ns.metadata;
  const metadata: Record<string, unknown> = {};
  for (const k of ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'] as const) {
    if (m[k] !== undefined) metadata[k] = m[k];
  }
  return { metadata, spec: ns.spec ?? {}, status: ns.status ?? {} };
}
