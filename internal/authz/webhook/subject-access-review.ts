/**
 * The SubjectAccessReview the webhook authorizer sends (authorization.k8s.io v1 or v1beta1) and
 * the status it reads back, shaped as kube's webhook authorizer shapes them: resourceAttributes
 * (with the field selector's requirements) or nonResourceAttributes, the user, groups, extra and
 * uid; empty fields omitted as Go's omitempty omits them. In v1beta1 the groups field is "group".
 */
import type { FieldTerm } from '../../selectors/fields.js';
import type { LabelRequirement } from '../../selectors/labels.js';
import type { WebhookVersion } from '../../server/options/authorization.js';
import type { AuthorizationAttributes, SelectorAttributes } from '../interface.js';

/** What the webhook answered (SubjectAccessReviewStatus). */
export interface ReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

type Obj = Record<string, unknown>;

function set(o: Obj, key: string, value: string | undefined): void {
  if (value) o[key] = value;
}

/** metav1.FieldSelectorRequirement list of the request's field selector (none when absent, empty or unparsed). */
function fieldSelectorRequirements(selector: SelectorAttributes<FieldTerm> | undefined): Obj[] | undefined {
  if (!selector || selector.parseError || selector.requirements.length === 0) return undefined;
  return selector.requirements.map((t) => ({ key: t.field, operator: t.operator === '=' ? 'In' : 'NotIn', values: [t.value] }));
}

const labelOperators: Readonly<Record<string, string>> = { '=': 'In', '==': 'In', in: 'In', '!=': 'NotIn', notin: 'NotIn', exists: 'Exists', '!': 'DoesNotExist' };

/** metav1.LabelSelectorRequirement list of the request's label selector (gt/lt have no such form and are left out, as kube does). */
function labelSelectorRequirements(selector: SelectorAttributes<LabelRequirement> | undefined): Obj[] | undefined {
  if (!selector || selector.parseError) return undefined;
  const out: Obj[] = [];
  for (const r of selector.requirements) {
    const operator = labelOperators[r.operator];
    if (!operator) continue;
    out.push({ key: r.key, operator, ...(operator === 'In' || operator === 'NotIn' ? { values: [...(r.values ?? [])] } : {}) });
  }
  return out.length > 0 ? out : undefined;
}

/** The v1 spec for attrs; its JSON is also the cache key. */
export function reviewSpec(a: AuthorizationAttributes): Obj {
  const spec: Obj = {};
  if (a.isResourceRequest) {
    const r: Obj = {};
    set(r, 'namespace', a.namespace);
    set(r, 'verb', a.verb);
    set(r, 'group', a.apiGroup);
    set(r, 'version', a.apiVersion);
    set(r, 'resource', a.resource);
    set(r, 'subresource', a.subresource);
    set(r, 'name', a.name);
    const requirements = fieldSelectorRequirements(a.fieldSelector);
    if (requirements) r.fieldSelector = { requirements };
    const labelRequirements = labelSelectorRequirements(a.labelSelector);
    if (labelRequirements) r.labelSelector = { requirements: labelRequirements };
    spec.resourceAttributes = r;
  } else {
    const n: Obj = {};
    set(n, 'path', a.path);
    set(n, 'verb', a.verb);
    spec.nonResourceAttributes = n;
  }
  set(spec, 'user', a.user.name);
  if (a.user.groups.length > 0) spec.groups = [...a.user.groups];
  if (a.user.extra && Object.keys(a.user.extra).length > 0) spec.extra = a.user.extra;
  set(spec, 'uid', a.user.uid);
  return spec;
}

/** The request body for version, from a v1 spec. */
export function reviewBody(version: WebhookVersion, spec: Obj): Obj {
  let wire = spec;
  if (version === 'v1beta1') {
    // Same fields and order; only groups is spelled "group".
    wire = {};
    for (const [k, v] of Object.entries(spec)) wire[k === 'groups' ? 'group' : k] = v;
  }
  return { kind: 'SubjectAccessReview', apiVersion: `authorization.k8s.io/${version}`, metadata: { creationTimestamp: null }, spec: wire, status: { allowed: false } };
}

function typeName(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v;
}

/** Reads the status of the webhook's answer; throws on anything that is not a SubjectAccessReview. */
export function parseReviewResponse(body: Buffer): ReviewStatus {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new Error(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${typeName(doc)} into Go value of type struct`);
  const o = doc as Obj;
  if (o.kind !== undefined && o.kind !== 'SubjectAccessReview') throw new Error(`unexpected kind ${JSON.stringify(o.kind)} in the webhook's answer, expected "SubjectAccessReview"`);
  if (o.apiVersion !== undefined && o.apiVersion !== 'authorization.k8s.io/v1' && o.apiVersion !== 'authorization.k8s.io/v1beta1') {
    throw new Error(`unexpected apiVersion ${JSON.stringify(o.apiVersion)} in the webhook's answer`);
  }
  const status = (o.status ?? {}) as Obj;
  if (typeof status !== 'object' || status === null || Array.isArray(status)) throw new Error(`json: cannot unmarshal ${typeName(status)} into Go struct field SubjectAccessReview.status`);
  const field = <T extends 'boolean' | 'string'>(name: string, type: T): T extends 'boolean' ? boolean : string => {
    const v = status[name];
    if (v === undefined || v === null) return (type === 'boolean' ? false : '') as T extends 'boolean' ? boolean : string;
    if (typeof v !== type) throw new Error(`json: cannot unmarshal ${typeName(v)} into Go struct field SubjectAccessReviewStatus.status.${name} of type ${type === 'boolean' ? 'bool' : 'string'}`);
    return v as T extends 'boolean' ? boolean : string;
  };
  return { allowed: field('allowed', 'boolean'), denied: field('denied', 'boolean'), reason: field('reason', 'string'), evaluationError: field('evaluationError', 'string') };
}
