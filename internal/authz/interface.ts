/**
 * Authorization: may this user do this? An Authorizer gets the request's attributes and answers
 * Allow, Deny or NoOpinion with a reason. Several, in --authorization-mode order, compose as a union
 * (union.ts) in which the first Allow or Deny wins. A RuleResolver lists what a user may do in a
 * namespace (SelfSubjectRulesReview, RBAC's escalation check).
 */
import type { UserInfo } from '../request/context.js';
import type { FieldTerm } from '../selectors/fields.js';
import type { LabelRequirement } from '../selectors/labels.js';

/**
 * The selector a request is limited to (kube's AuthorizeWithSelectors, on by default since 1.32):
 * the requirements that were understood, and why some or all were not (a parse error). Selectors can
 * only narrow a request, so an authorizer may ignore them and decide for the whole collection.
 */
export interface SelectorAttributes<R> {
  readonly requirements: readonly R[];
  /** Set when (part of) the selector could not be parsed; requirements then hold what could. */
  readonly parseError?: string;
}

/** What is asked (kube's authorizer.Attributes). */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /** Lowercase verb: get, list, watch, create, update, patch, delete, deletecollection, impersonate, bind, escalate, use, ... or an HTTP method for non-resource requests. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** The URL path (non-resource requests are authorized by it). */
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The field selector the request is limited to, if any (kube's GetFieldSelector). */
  readonly fieldSelector?: SelectorAttributes<FieldTerm>;
  /** The label selector the request is limited to, if any (kube's GetLabelSelector). */
  readonly labelSelector?: SelectorAttributes<LabelRequirement>;
}

/** An authorizer's answer. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** A decision with the reason shown to the client on denial and recorded in audit. */
export interface AuthorizationDecision {
  readonly decision: Decision;
  readonly reason: string;
  /** Set when the authorizer could not decide because of an error (it then answers NoOpinion or Deny). */
  readonly error?: string;
}

/** The shape of an answer that may need I/O (webhooks) or not (RBAC, from memory). */
export type MaybePromise<T> = T | Promise<T>;

/** Decides one request. Must not throw for a denial; may be called concurrently. */
export interface Authorizer {
  /** The mode name (RBAC, Node, ABAC, Webhook, AlwaysAllow, AlwaysDeny), for metrics and audit. */
  readonly name: string;
  authorize(attrs: AuthorizationAttributes): MaybePromise<AuthorizationDecision>;
}

/** One resource rule as SelfSubjectRulesReview reports it (authorization.k8s.io/v1 ResourceRule). */
export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

/** One non-resource rule (authorization.k8s.io/v1 NonResourceRule). */
export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** What a user may do in a namespace, as far as one authorizer knows. */
export interface RulesResult {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  /** True when the authorizer cannot list everything it would allow (webhooks, ABAC, Node). */
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

/** Lists rules (kube's authorizer.RuleResolver). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): MaybePromise<RulesResult>;
}

/** An authorizer that can also list its rules (every mode can; some answer "incomplete"). */
export interface RuleAuthorizer extends Authorizer, RuleResolver {}
