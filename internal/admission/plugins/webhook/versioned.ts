/**
 * The attributes of one admission request as webhooks see them (kube's VersionedAttributes): the
 * objects in the request's version, the kind and resource, and the AdmissionReview request fields.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { ReviewInput } from './review.js';

/** The request's objects in its own version; object changes as mutating webhooks patch it. */
export class VersionedAttributes {
  object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  /** Set when a webhook's patch replaced object (it must be written back to the stored form). */
  dirty = false;
  readonly kind: { group: string; version: string; kind: string };

  constructor(readonly attrs: AdmissionAttributes) {
    const v = attrs.versioned;
    this.object = attrs.object && v ? v.toExternal(attrs.object) : attrs.object;
    this.oldObject = attrs.oldObject && v ? v.toExternal(attrs.oldObject) : attrs.oldObject;
    const apiVersion = v?.apiVersion ?? (attrs.group ? `${attrs.group}/${attrs.version}` : attrs.version);
    const slash = apiVersion.indexOf('/');
    this.kind = { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1), kind: attrs.kind };
  }

  /** The resource requested. */
  get resource(): { group: string; version: string; resource: string } {
    return { group: this.attrs.group, version: this.attrs.version, resource: this.attrs.resource };
  }

  /** The namespace kube reports: a namespace object's own name for requests on an existing namespace. */
  get namespace(): string {
    const a = this.attrs;
    if (a.namespace === '' && a.group === '' && a.resource === 'namespaces' && a.operation !== 'CREATE') return a.name;
    return a.namespace;
  }

  /** The AdmissionRequest fields (for the review and for matchConditions' request variable). */
  reviewInput(): ReviewInput {
    const a = this.attrs;
    return {
      kind: this.kind,
      resource: this.resource,
      subResource: a.subresource,
      requestKind: this.kind,
      requestResource: this.resource,
      requestSubResource: a.subresource,
      name: a.name,
      namespace: this.namespace,
      operation: a.operation,
      userInfo: a.userInfo,
      object: this.object,
      oldObject: this.oldObject,
      dryRun: a.dryRun,
      options: a.options,
    };
  }
}
