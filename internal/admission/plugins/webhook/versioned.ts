/**
 * The attributes of one admission request as webhooks see them (kube's VersionedAttributes): the
 * objects in the request's version, the kind and resource, and the AdmissionReview request fields.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { ReviewInput } from './review.js';
import type { RuleTarget } from './rules.js';

/** The request's objects in its own version; object changes as mutating webhooks patch it. */
export class VersionedAttributes {
  private converted = false;
  private obj: KubeObject | undefined;
  private old: KubeObject | undefined;
  /** Set when a webhook's patch replaced object (it must be written back to the stored form). */
  dirty = false;
  readonly kind: { group: string; version: string; kind: string };

  constructor(readonly attrs: AdmissionAttributes) {
    const v = attrs.versioned;
    const apiVersion = v?.apiVersion ?? (attrs.group ? `${attrs.group}/${attrs.version}` : attrs.version);
    const slash = apiVersion.indexOf('/');
    this.kind = { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1), kind: attrs.kind };
  }

  // Converted on first use: most requests meet no webhook whose rules match.
  private convert(): void {
    if (this.converted) return;
    this.converted = true;
    const a = this.attrs;
    const v = a.versioned;
    this.obj = a.object && v ? v.toExternal(a.object) : a.object;
    this.old = a.oldObject && v ? v.toExternal(a.oldObject) : a.oldObject;
  }

  /** The object in the request's version (as patched so far). */
  get object(): KubeObject | undefined {
    this.convert();
    return this.obj;
  }

  set object(value: KubeObject | undefined) {
    this.convert();
    this.obj = value;
  }

  /** The old object in the request's version. */
  get oldObject(): KubeObject | undefined {
    this.convert();
    return this.old;
  }

  private target: RuleTarget | undefined;

  /** What webhook rules are matched against. */
  get ruleTarget(): RuleTarget {
    const a = this.attrs;
    this.target ??= { operation: a.operation, group: a.group, version: a.version, resource: a.resource, subresource: a.subresource, namespace: this.namespace };
    return this.target;
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
