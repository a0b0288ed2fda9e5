/**
 * The authorization filter: asks the server's authorizer (the union of --authorization-mode) whether
 * the authenticated (or impersonated) user may make the request, from its request info. Anything
 * but Allow is 403 Forbidden with kube's message:
 * `pods is forbidden: User "x" cannot list resource "pods" in API group "" in the namespace "y"`,
 * followed by ": <reason>" when the deciding authorizer gave one. An audited request's event gets
 * kube's annotations: authorization.k8s.io/decision ("allow" or "forbid") and
 * authorization.k8s.io/reason (the authorizer's reason, "internal error" when one failed).
 */
import { newForbidden, newInternalError } from '../apierrors/factories.js';
import type { StatusError } from '../apierrors/status-error.js';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, SelectorAttributes } from '../authz/interface.js';
import type { RequestContext } from '../request/context.js';
import { parseFieldSelector, type FieldTerm } from '../selectors/fields.js';
import { parseLabelSelector, type LabelRequirement } from '../selectors/labels.js';
import type { Filter } from './interface.js';

function selectorAttributes<R>(raw: string | null, parse: (s: string) => readonly R[]): SelectorAttributes<R> | undefined {
  if (!raw) return undefined;
  try {
    return { requirements: parse(raw) };
  } catch (err) {
    return { requirements: [], parseError: (err as Error).message };
  }
}

/**
 * The attributes of the request in ctx (kube's GetAuthorizerAttributes); query, when given, supplies
 * the field and label selectors of a list, watch or deletecollection (kube's AuthorizeWithSelectors).
 */
export function attributesOf(ctx: RequestContext, query?: URLSearchParams): AuthorizationAttributes {
  const info = ctx.requestInfo;
  const collection = query !== undefined && (info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection');
  const fieldSelector = collection ? selectorAttributes<FieldTerm>(query.get('fieldSelector'), (s) => parseFieldSelector(s).terms) : undefined;
  const labelSelector = collection ? selectorAttributes<LabelRequirement>(query.get('labelSelector'), (s) => parseLabelSelector(s).requirements) : undefined;
  return {
    user: ctx.user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
    ...(fieldSelector ? { fieldSelector } : {}),
    ...(labelSelector ? { labelSelector } : {}),
  };
}

/** kube's forbiddenMessage: what the user cannot do, without the reason. */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const user = a.user.name;
  if (!a.isResourceRequest) return `User ${JSON.stringify(user)} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  if (a.namespace) {
    return `User ${JSON.stringify(user)} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} in the namespace ${JSON.stringify(a.namespace)}`;
  }
  return `User ${JSON.stringify(user)} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} at the cluster scope`;
}

/** The 403 kube answers a denied request with. */
export function forbiddenError(a: AuthorizationAttributes, reason: string): StatusError {
  const msg = forbiddenMessage(a);
  const why = reason ? `${msg}: ${reason}` : msg;
  return newForbidden({ group: a.apiGroup, resource: a.isResourceRequest ? a.resource : '' }, a.isResourceRequest ? a.name : '', why);
}

/** What the filter needs. */
export interface AuthorizationFilterDeps {
  readonly authorizer: Authorizer;
  /** Told of every decision (metrics, audit annotations). */
  readonly observe?: (attrs: AuthorizationAttributes, decision: AuthorizationDecision, seconds: number) => void;
}

/** The audit annotation of an authorization decision: "allow" or "forbid". */
export const decisionAnnotationKey = 'authorization.k8s.io/decision';
/** The audit annotation of the authorizer's reason ("internal error" when one failed). */
export const reasonAnnotationKey = 'authorization.k8s.io/reason';

/** Builds the authorization filter. Synchronous when the authorizer answers synchronously. */
export function withAuthorization(deps: AuthorizationFilterDeps): Filter {
  const decide = (ctx: RequestContext, attrs: AuthorizationAttributes, d: AuthorizationDecision, start: bigint): void => {
    deps.observe?.(attrs, d, Number(process.hrtime.bigint() - start) / 1e9);
    const audit = ctx.audit;
    // An authorizer may allow despite an evaluation error elsewhere, so the decision comes first;
    // a request nobody allowed because an authorizer failed (a webhook down) is the server's
    // failure, answered 500 as kube does, not a denial.
    if (d.decision === 'Allow') {
      audit?.annotate(decisionAnnotationKey, 'allow');
      audit?.annotate(reasonAnnotationKey, d.reason);
      return;
    }
    if (d.error) {
      audit?.annotate(reasonAnnotationKey, 'internal error');
      throw newInternalError(d.error);
    }
    audit?.annotate(decisionAnnotationKey, 'forbid');
    audit?.annotate(reasonAnnotationKey, d.reason);
    throw forbiddenError(attrs, d.reason);
  };
  return (_req, _res, state) => {
    const ctx = state.ctx;
    const attrs = attributesOf(ctx, state.query);
    const start = deps.observe ? process.hrtime.bigint() : 0n;
    const d = deps.authorizer.authorize(attrs);
    if (d instanceof Promise) return d.then((answer) => decide(ctx, attrs, answer, start));
    decide(ctx, attrs, d, start);
    return undefined;
  };
}
