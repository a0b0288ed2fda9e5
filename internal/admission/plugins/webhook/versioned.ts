/**
 * The attributes of one admission request as webhooks see them (kube's VersionedAttributes): the
 * objects in one version (the request's, or the version an Equivalent rule matched), the kind and
 * resource in that version, and the AdmissionReview request fields.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AdmissionAttributes, AdmissionVersioning } from '../../interface.js';
import type { ReviewInput } from './review.js';
import type { RuleTarget } from './rules.js';

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1) };
}

/** The request's own version when the attributes carry none (stored form = request form). */
function identityVersioning(attrs: AdmissionAttributes): AdmissionVersioning {
  return {
    apiVersion: attrs.group ? `${attrs.group}/${attrs.version}` : attrs.version,
    kind: attrs.kind,
    toExternal: (o) => o,
    toInternal: (o) => o,
    defaults: () => undefined,
  };
}

/** The request's objects in one version; object changes as mutating webhooks patch it. */
export class VersionedAttributes {
  /** The request's own version. */
  readonly requestVersioning: AdmissionVersioning;
  private current: AdmissionVersioning;
  /** The version of the resource the current version serves it in. */
  private resourceVersion: string;
  private converted = false;
  private obj: KubeObject | undefined;
  private old: KubeObject | undefined;
  /** Set when a webhook's patch replaced object (it must be written back to the stored form). */
  dirty = false;
  private target: RuleTarget | undefined;

  constructor(readonly attrs: AdmissionAttributes) {
    this.requestVersioning = attrs.versioned ?? identityVersioning(attrs);
    this.current = this.requestVersioning;
    this.resourceVersion = attrs.version;
  }

  // Converted on first use: most requests meet no webhook whose rules match.
  private convert(): void {
    if (this.converted) return;
    this.converted = true;
    const a = this.attrs;
    this.obj = a.object ? this.current.toExternal(a.object) : undefined;
    this.old = a.oldObject ? this.current.toExternal(a.oldObject) : undefined;
  }

  /**
   * Puts the objects into version v (resource version resourceVersion), converting through the
   * stored form what webhooks patched so far (kube's ConvertVersionedAttributes).
   */
  useVersion(v: AdmissionVersioning, resourceVersion: string): void {
    if (v.apiVersion === this.current.apiVersion && v.kind === this.current.kind) return;
    const internal = this.dirty && this.obj ? this.current.toInternal(this.obj) : this.attrs.object;
    this.current = v;
    this.resourceVersion = resourceVersion;
    this.converted = true;
    this.obj = internal ? v.toExternal(internal) : undefined;
    this.old = this.attrs.oldObject ? v.toExternal(this.attrs.oldObject) : undefined;
  }

  /** A copy of these attributes in version v (for webhooks called side by side). */
  inVersion(v: AdmissionVersioning, resourceVersion: string): VersionedAttributes {
    const copy = new VersionedAttributes(this.attrs);
    copy.useVersion(v, resourceVersion);
    return copy;
  }

  /** The current version. */
  get versioning(): AdmissionVersioning {
    return this.current;
  }

  /** The object in the current version (as patched so far). */
  get object(): KubeObject | undefined {
    this.convert();
    return this.obj;
  }

  set object(value: KubeObject | undefined) {
    this.convert();
    this.obj = value;
  }

  /** The old object in the current version. */
  get oldObject(): KubeObject | undefined {
    this.convert();
    return this.old;
  }

  /** The object in the stored form, with the webhooks' patches. */
  internalObject(): KubeObject | undefined {
    return this.obj ? this.current.toInternal(this.obj) : undefined;
  }

  /** What webhook rules are matched against (the request's resource). */
  get ruleTarget(): RuleTarget {
    const a = this.attrs;
    this.target ??= { operation: a.operation, group: a.group, version: a.version, resource: a.resource, subresource: a.subresource, namespace: this.namespace };
    return this.target;
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
    const requestKind = { ...splitApiVersion(this.requestVersioning.apiVersion), kind: this.requestVersioning.kind };
    const requestResource = { group: a.group, version: a.version, resource: a.resource };
    return {
      kind: { ...splitApiVersion(this.current.apiVersion), kind: this.current.kind },
      resource: { group: a.group, version: this.resourceVersion, resource: a.resource },
      subResource: a.subresource,
      requestKind,
      requestResource,
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
