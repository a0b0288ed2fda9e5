/**
 * The admissionregistration.k8s.io/v1 webhook shapes the webhook plugins read (as stored, so
 * defaulted: failurePolicy, matchPolicy, selectors, timeoutSeconds, scope, service port), and what
 * one webhook compiles to.
 */
import type { CompiledExpression } from '../../../cel/expression.js';
import type { LabelSelector } from '../../../selectors/labels.js';

/** RuleWithOperations. */
export interface WebhookRule {
  readonly operations?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly resources?: readonly string[];
  readonly scope?: string;
}

/** ServiceReference. */
export interface ServiceReference {
  readonly namespace: string;
  readonly name: string;
  readonly path?: string;
  readonly port?: number;
}

/** WebhookClientConfig. */
export interface WebhookClientConfig {
  readonly url?: string;
  readonly service?: ServiceReference;
  /** base64 PEM. */
  readonly caBundle?: string;
}

/** MatchCondition. */
export interface MatchCondition {
  readonly name: string;
  readonly expression: string;
}

/** A ValidatingWebhook or MutatingWebhook. */
export interface WebhookSpec {
  readonly name: string;
  readonly clientConfig: WebhookClientConfig;
  readonly rules?: readonly WebhookRule[];
  readonly failurePolicy?: 'Fail' | 'Ignore';
  readonly matchPolicy?: 'Exact' | 'Equivalent';
  readonly namespaceSelector?: unknown;
  readonly objectSelector?: unknown;
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly admissionReviewVersions?: readonly string[];
  readonly reinvocationPolicy?: 'Never' | 'IfNeeded';
  readonly matchConditions?: readonly MatchCondition[];
}

/** One compiled match condition (or the reason it does not compile). */
export interface CompiledCondition {
  readonly name: string;
  readonly expression?: CompiledExpression;
  readonly compileError?: string;
}

/** One webhook of one configuration, compiled once per configuration change. */
export interface WebhookAccessor {
  /** Unique among the plugin's webhooks: "<configuration>/<webhook>/<index>". */
  readonly uid: string;
  readonly configurationName: string;
  readonly spec: WebhookSpec;
  readonly name: string;
  readonly failOpen: boolean;
  readonly namespaceSelector: LabelSelector;
  readonly objectSelector: LabelSelector;
  /** Why a selector does not parse (the webhook then fails every request it would see). */
  readonly selectorError?: string;
  readonly conditions: readonly CompiledCondition[];
  /** The AdmissionReview version to send: v1 unless the webhook accepts only v1beta1. */
  readonly reviewVersion: 'v1' | 'v1beta1';
  /** kube's timeout: timeoutSeconds (default 10). */
  readonly timeoutSeconds: number;
}
