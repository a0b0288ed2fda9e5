/**
 * OwnerReferencesPermissionEnforcement (kube's gc admission plugin): changing an object's
 * metadata.ownerReferences (other than on create) needs delete permission on the object, and
 * setting blockOwnerDeletion on a reference needs update permission on the owner's finalizers
 * subresource, since it can hold up the owner's deletion. pods/status is exempt, as in kube.
 */
import type { KubeObject, OwnerReference } from '../../../../api/meta/types.js';
import { newForbidden } from '../../../apierrors/factories.js';
import type { AuthorizationAttributes, Authorizer } from '../../../authz/interface.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';

/** A resource a kind is served as. */
export interface KindMapping {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

/** The resources apiVersion/kind is served as; throws kube's RESTMapping error when none. */
export type KindMapper = (apiVersion: string, kind: string) => readonly KindMapping[];

/** Whether the references differ (kube compares them in order, field by field). */
export function isChangingOwnerReference(obj: KubeObject | undefined, old: KubeObject | undefined): boolean {
  const next = obj?.metadata.ownerReferences ?? [];
  if (!old) return next.length > 0;
  const prev = old.metadata.ownerReferences ?? [];
  if (prev.length !== next.length) return true;
  return prev.some((p, i) => !sameReference(p, next[i] as OwnerReference));
}

function sameReference(a: OwnerReference, b: OwnerReference): boolean {
  return a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name && a.uid === b.uid && (a.controller ?? null) === (b.controller ?? null) && (a.blockOwnerDeletion ?? null) === (b.blockOwnerDeletion ?? null);
}

/** The references of obj that block their owner's deletion and did not in old (matched by uid). */
export function newBlockingRefs(obj: KubeObject | undefined, old: KubeObject | undefined): OwnerReference[] {
  const blockingBefore = new Set((old?.metadata.ownerReferences ?? []).filter((r) => r.blockOwnerDeletion === true).map((r) => r.uid));
  return (obj?.metadata.ownerReferences ?? []).filter((r) => r.blockOwnerDeletion === true && !blockingBefore.has(r.uid));
}

/** Go's "%v, %v" of an authorizer's reason and error. */
function reasonText(reason: string, error: string | undefined): string {
  return `${reason}, ${error ?? '<nil>'}`;
}

/** The plugin. */
export class OwnerReferencesPermissionEnforcement implements AdmissionPlugin {
  readonly name = 'OwnerReferencesPermissionEnforcement';

  constructor(
    private readonly authorizer: () => Authorizer,
    private readonly mapKind: KindMapper,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.group === '' && attrs.resource === 'pods' && attrs.subresource === 'status') return;
    if (!isChangingOwnerReference(attrs.object, attrs.oldObject)) return;
    const base = { user: attrs.userInfo, isResourceRequest: true, path: '' };
    if (attrs.operation !== 'CREATE') {
      const decision = await this.authorizer().authorize({
        ...base,
        verb: 'delete',
        namespace: attrs.namespace,
        apiGroup: attrs.group,
        apiVersion: attrs.version,
        resource: attrs.resource,
        subresource: attrs.subresource,
        name: attrs.name,
      });
      if (decision.decision !== 'Allow') throw this.forbidden(attrs, `cannot set an ownerRef on a resource you can't delete: ${reasonText(decision.reason, decision.error)}`);
    }
    for (const ref of newBlockingRefs(attrs.object, attrs.oldObject)) {
      let mappings: readonly KindMapping[];
      try {
        mappings = this.mapKind(ref.apiVersion, ref.kind);
      } catch (err) {
        throw this.forbidden(
          attrs,
          `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: ${(err as Error).message}`,
        );
      }
      for (const m of mappings) {
        const record: AuthorizationAttributes = {
          ...base,
          verb: 'update',
          // A namespaced owner must be in the dependent's namespace.
          namespace: m.namespaced ? attrs.namespace : '',
          apiGroup: m.group,
          apiVersion: m.version,
          resource: m.resource,
          subresource: 'finalizers',
          name: ref.name,
        };
        const decision = await this.authorizer().authorize(record);
        if (decision.decision !== 'Allow') {
          throw this.forbidden(attrs, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${reasonText(decision.reason, decision.error)}`);
        }
      }
    }
  }

  /** admission.NewForbidden: the request's resource and name (the object's when the URL has none). */
  private forbidden(attrs: AdmissionAttributes, why: string): Error {
    const name = attrs.name || attrs.object?.metadata.name || attrs.object?.metadata.generateName || '';
    return newForbidden({ group: attrs.group, resource: attrs.resource }, name, why);
  }
}
