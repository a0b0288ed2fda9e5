/**
 * From an access review's spec to the attributes the authorizer is asked about, and from its
 * decision to the review's status (kube's pkg/registry/authorization/util): an empty version means
 * every version ("*"); field and label selectors are parsed as kube parses them, keeping what
 * could be understood and reporting the rest in status.evaluationError; the decision maps to
 * allowed (Allow) and denied (Deny), NoOpinion being neither.
 */
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, SelectorAttributes } from '../../authz/interface.js';
import type { UserInfo } from '../../request/context.js';
import { parseFieldSelector, type FieldTerm } from '../../selectors/fields.js';
import { newLabelRequirement, parseLabelSelector, type LabelOperator, type LabelRequirement } from '../../selectors/labels.js';
import { aggregateMessages, goQuote } from '../../validation/field-error.js';
import type { AccessReviewSpec, AccessReviewStatus, NonResourceAttributesSpec, ResourceAttributesSpec, SelectorAttributesSpec } from './access-review-types.js';

const labelOperators: ReadonlyMap<string, LabelOperator> = new Map<string, LabelOperator>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A review's field selector as kube reads it (undefined when there is none to apply). */
export function fieldSelectorAttributes(spec: SelectorAttributesSpec | null | undefined): SelectorAttributes<FieldTerm> | undefined {
  if (!spec) return undefined;
  let result: SelectorAttributes<FieldTerm> | undefined;
  if (spec.rawSelector) {
    try {
      result = { requirements: parseFieldSelector(spec.rawSelector).terms };
    } catch (err) {
      result = { requirements: [], parseError: messageOf(err) };
    }
  }
  const reqs = spec.requirements ?? [];
  if (reqs.length === 0) return result;
  const terms: FieldTerm[] = [];
  const errors: string[] = [];
  for (const r of reqs) {
    const values = r.values ?? [];
    if (values.length > 1) errors.push('fieldSelectors do not yet support multiple values');
    else if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length !== 1) errors.push(`fieldSelectors ${r.operator === 'In' ? 'in' : 'not in'} must have one value`);
      else terms.push({ field: r.key ?? '', operator: r.operator === 'In' ? '=' : '!=', value: values[0] as string });
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') errors.push(`fieldSelectors do not yet support ${r.operator}`);
    else errors.push(`${goQuote(r.operator ?? '')} is not a valid field selector operator`);
  }
  return { requirements: terms, ...(errors.length > 0 ? { parseError: aggregateMessages(errors) } : {}) };
}

/** A review's label selector as kube reads it (undefined when there is none to apply). */
export function labelSelectorAttributes(spec: SelectorAttributesSpec | null | undefined): SelectorAttributes<LabelRequirement> | undefined {
  if (!spec) return undefined;
  let result: SelectorAttributes<LabelRequirement> | undefined;
  if (spec.rawSelector) {
    try {
      result = { requirements: parseLabelSelector(spec.rawSelector).requirements };
    } catch (err) {
      result = { requirements: [], parseError: messageOf(err) };
    }
  }
  const reqs = spec.requirements ?? [];
  if (reqs.length === 0) return result;
  const requirements: LabelRequirement[] = [];
  const errors: string[] = [];
  for (const r of reqs) {
    const op = labelOperators.get(r.operator ?? '');
    if (!op) {
      errors.push(`${goQuote(r.operator ?? '')} is not a valid label selector operator`);
      continue;
    }
    try {
      requirements.push(newLabelRequirement(r.key ?? '', op, r.values && r.values.length > 0 ? r.values : null));
    } catch (err) {
      errors.push(messageOf(err));
    }
  }
  return { requirements, ...(errors.length > 0 ? { parseError: aggregateMessages(errors) } : {}) };
}

/** ResourceAttributesFrom: what user asks to do to a resource. */
export function resourceAttributesFrom(user: UserInfo, ra: ResourceAttributesSpec): AuthorizationAttributes {
  const fieldSelector = fieldSelectorAttributes(ra.fieldSelector);
  const labelSelector = labelSelectorAttributes(ra.labelSelector);
  return {
    user,
    verb: ra.verb ?? '',
    isResourceRequest: true,
    path: '',
    namespace: ra.namespace ?? '',
    apiGroup: ra.group ?? '',
    apiVersion: ra.version || '*',
    resource: ra.resource ?? '',
    subresource: ra.subresource ?? '',
    name: ra.name ?? '',
    ...(fieldSelector ? { fieldSelector } : {}),
    ...(labelSelector ? { labelSelector } : {}),
  };
}

/** NonResourceAttributesFrom: what user asks to do to a URL path. */
export function nonResourceAttributesFrom(user: UserInfo, nra: NonResourceAttributesSpec): AuthorizationAttributes {
  return { user, verb: nra.verb ?? '', isResourceRequest: false, path: nra.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

/** The attributes of a validated spec for user (exactly one of the two attribute kinds is set). */
export function attributesFor(user: UserInfo, spec: AccessReviewSpec): AuthorizationAttributes {
  return spec.resourceAttributes ? resourceAttributesFrom(user, spec.resourceAttributes) : nonResourceAttributesFrom(user, spec.nonResourceAttributes ?? {});
}

/** AuthorizationAttributesFrom: the subject a SubjectAccessReview names, as a user. */
export function subjectOf(spec: AccessReviewSpec): UserInfo {
  const extra: Record<string, readonly string[]> = {};
  for (const [k, v] of Object.entries(spec.extra ?? {})) extra[k] = v ?? [];
  return {
    name: spec.user ?? '',
    groups: spec.groups ?? [],
    ...(spec.uid ? { uid: spec.uid } : {}),
    ...(spec.extra ? { extra } : {}),
  };
}

/** BuildEvaluationError: the authorizer's error and what of the selectors was ignored, joined by "; ". */
export function evaluationError(decisionError: string | undefined, attrs: AuthorizationAttributes): string {
  const parts: string[] = [];
  if (decisionError) parts.push(decisionError);
  for (const [name, sel] of [['fieldSelector', attrs.fieldSelector], ['labelSelector', attrs.labelSelector]] as const) {
    if (sel?.parseError === undefined) continue;
    parts.push(`spec.resourceAttributes.${name} ${sel.requirements.length > 0 ? 'partially ignored' : 'ignored'} due to parse error`);
  }
  return parts.join('; ');
}

/** The status of a review the authorizer decided. */
export function accessReviewStatus(d: AuthorizationDecision, attrs: AuthorizationAttributes): AccessReviewStatus {
  const evalError = evaluationError(d.error, attrs);
  return {
    allowed: d.decision === 'Allow',
    ...(d.decision === 'Deny' ? { denied: true } : {}),
    ...(d.reason ? { reason: d.reason } : {}),
    ...(evalError ? { evaluationError: evalError } : {}),
  };
}

/** Asks authorizer about attrs and answers with the review's status. */
export async function reviewAccess(authorizer: Authorizer, attrs: AuthorizationAttributes): Promise<AccessReviewStatus> {
  return accessReviewStatus(await authorizer.authorize(attrs), attrs);
}
