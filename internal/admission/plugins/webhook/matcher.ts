/**
 * Whether a webhook is called for a request (kube's ShouldCallHook): namespaceSelector (the
 * namespace's labels from the informer; a namespace's own labels for writes of namespaces),
 * objectSelector (object or old object), rules (matchPolicy Equivalent also matches the resource in
 * other versions), then matchConditions, whose errors follow the failure policy.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden, newInternalError, newNotFound } from '../../../apierrors/factories.js';
import { hasReason, type StatusError } from '../../../apierrors/status-error.js';
import { CelEvaluationError, type AuthzBinding } from '../../../cel/expression.js';
import { authorizerValue } from '../../../cel/library/authz.js';
import type { Authorizer } from '../../../authz/interface.js';
import { userInfoJson } from './review.js';
import { ruleMatches } from './rules.js';
import type { AdmissionVersioning } from '../../interface.js';
import type { WebhookAccessor } from './types.js';
import type { VersionedAttributes } from './versioned.js';

/** Finds a namespace: the informer's copy, or storage when the informer has not seen it yet. */
export type NamespaceLookup = (name: string) => Promise<KubeObject | undefined>;

function labelsOf(obj: KubeObject | undefined): Readonly<Record<string, string>> | undefined {
  return obj?.metadata?.labels;
}

async function namespaceMatches(hook: WebhookAccessor, va: VersionedAttributes, namespaces: NamespaceLookup): Promise<{ matches: boolean; err?: StatusError }> {
  const a = va.attrs;
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  const ns = va.namespace;
  if (ns === '' && !isNamespace) return { matches: true };
  if (hook.namespaceSelector.empty()) return { matches: true };
  if (isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
    return { matches: hook.namespaceSelector.matches(labelsOf(a.object) ?? {}) };
  }
  try {
    const namespace = await namespaces(ns);
    if (!namespace) return { matches: false, err: newNotFound({ group: '', resource: 'namespaces' }, ns) };
    return { matches: hook.namespaceSelector.matches(labelsOf(namespace) ?? {}) };
  } catch (err) {
    if (hasReason(err, 'NotFound')) return { matches: false, err: err as StatusError };
    return { matches: false, err: newInternalError((err as Error).message) };
  }
}

function objectMatches(hook: WebhookAccessor, va: VersionedAttributes): boolean {
  if (hook.objectSelector.empty()) return true;
  const a = va.attrs;
  return (a.object !== undefined && hook.objectSelector.matches(labelsOf(a.object) ?? {})) || (a.oldObject !== undefined && hook.objectSelector.matches(labelsOf(a.oldObject) ?? {}));
}

/** The served versions of a (sub)resource, preferred first (AdmissionPluginDeps.versionsOf). */
export type VersionsLookup = (group: string, resource: string, subresource: string) => ReadonlyArray<MatchedVersion>;

/** What a webhook is called in: the version of the resource and the versioning of its kind. */
export interface MatchedVersion {
  readonly version: string;
  readonly versioning: AdmissionVersioning;
}

/**
 * Which version a webhook's rules match the request in: the request's own when a rule matches it,
 * else (matchPolicy Equivalent) the first other served version of the resource a rule matches,
 * rules in order. Synchronous and cheap: callers test it first.
 */
export function rulesMatch(hook: WebhookAccessor, va: VersionedAttributes, versionsOf?: VersionsLookup): MatchedVersion | undefined {
  const target = va.ruleTarget;
  const rules = hook.spec.rules ?? [];
  for (const r of rules) if (ruleMatches(r, target)) return { version: target.version, versioning: va.requestVersioning };
  if (hook.spec.matchPolicy !== 'Equivalent' || !versionsOf) return undefined;
  for (const r of rules) {
    for (const v of versionsOf(target.group, target.resource, target.subresource)) {
      if (v.version !== target.version && ruleMatches(r, { ...target, version: v.version })) return v;
    }
  }
  return undefined;
}

/** The request variable of matchConditions (the AdmissionRequest without its objects). */
function requestVariable(va: VersionedAttributes): Record<string, unknown> {
  const r = va.reviewInput();
  return {
    kind: r.kind,
    resource: r.resource,
    subResource: r.subResource,
    requestKind: r.requestKind,
    requestResource: r.requestResource,
    requestSubResource: r.requestSubResource,
    name: r.name,
    namespace: r.namespace,
    operation: r.operation,
    userInfo: userInfoJson(r.userInfo),
    dryRun: r.dryRun,
    options: r.options ?? null,
  };
}

/** matchConditions: false skips; errors fail the request (Fail) or skip the webhook (Ignore). */
async function conditionsMatch(hook: WebhookAccessor, va: VersionedAttributes, authorizer?: () => Authorizer): Promise<{ matches: boolean; err?: StatusError }> {
  if (hook.conditions.length === 0) return { matches: true };
  const a0 = va.attrs;
  const activation = {
    object: va.object ?? null,
    oldObject: va.oldObject ?? null,
    request: requestVariable(va),
    authorizer: authorizerValue({ group: a0.group, resource: a0.resource, subresource: a0.subresource, namespace: a0.namespace, name: a0.name }),
  };
  // authorizer.* checks ask the server's authorizer as the request's user, once per request.
  const authz: AuthzBinding | undefined = authorizer
    ? { user: a0.userInfo, authorize: (attrs) => authorizer().authorize(attrs), decisions: new Map(), pending: new Map() }
    : undefined;
  const errors: string[] = [];
  for (const c of hook.conditions) {
    if (!c.expression) {
      errors.push(c.compileError ?? 'compilation error');
      continue;
    }
    let result: unknown;
    try {
      result = (await c.expression.evaluateAsync(activation, authz ? { authz } : {})).value;
    } catch (err) {
      if (!(err instanceof CelEvaluationError)) throw err;
      errors.push(`expression '${c.expression.expression}' resulted in error: ${err.message}`);
      continue;
    }
    if (result === false) return { matches: false };
    if (result !== true) errors.push(`expression '${c.expression.expression}' resulted in error: no such overload`);
  }
  if (errors.length === 0) return { matches: true };
  if (hook.failOpen) return { matches: false };
  const message = errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
  const a = va.attrs;
  return { matches: false, err: newForbidden({ group: a.group, resource: a.resource }, a.name, message) };
}

/**
 * Whether hook applies to the request once its rules matched (see rulesMatch): selectors, then
 * matchConditions evaluated on the attributes in the matched version (inVersion gives them).
 * Throws the StatusError that refuses the request.
 */
export async function shouldCallHook(
  hook: WebhookAccessor,
  va: VersionedAttributes,
  namespaces: NamespaceLookup,
  inVersion: () => VersionedAttributes = () => va,
  authorizer?: () => Authorizer,
): Promise<boolean> {
  // kube tests the selectors before the rules, but reports their errors only for a webhook whose
  // rules match: testing the rules first (the callers do) decides the same, and costs nothing for
  // the webhooks that do not apply.
  if (hook.selectorError) throw newInternalError(hook.selectorError);
  const ns = await namespaceMatches(hook, va, namespaces);
  if (!ns.matches && !ns.err) return false;
  if (!objectMatches(hook, va)) return false;
  if (ns.err) throw ns.err;
  if (hook.conditions.length === 0) return true;
  const conditions = await conditionsMatch(hook, inVersion(), authorizer);
  if (conditions.err) throw conditions.err;
  return conditions.matches;
}
