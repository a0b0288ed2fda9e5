/**
 * The Webhook authorizer (kube's WebhookAuthorizer, as --authorization-webhook-* configure it):
 * sends a SubjectAccessReview for the request to the kubeconfig's server and reads
 * allowed/denied/reason back. Answers are cached by the review's spec (up to 8192, allowed ones for
 * the authorized TTL, the rest for the unauthorized TTL; requests with over 10k bytes of
 * client-chosen attributes are never cached). A webhook that cannot be reached or answers badly,
 * after the client's retries, gives NoOpinion with the error (kube's legacy failure policy): the
 * request is then refused with a 500 unless a later authorizer allows it.
 */
import type { Logger } from '../../observability/logging.js';
import type { ServerMetrics } from '../../observability/metrics.js';
import type { UserInfo } from '../../request/context.js';
import type { WebhookVersion } from '../../server/options/authorization.js';
import { WebhookTimeoutError, type WebhookClient } from '../../webhook/client.js';
import type { AuthorizationAttributes, AuthorizationDecision, MaybePromise, RuleAuthorizer, RulesResult } from '../interface.js';
import { LruExpireCache } from './cache.js';
import { parseReviewResponse, reviewBody, reviewSpec, type ReviewStatus } from './subject-access-review.js';

/** kube's cache size and the largest requester-controlled attributes it caches. */
const cacheCapacity = 8192;
const maxControlledAttrCacheSize = 10_000;

/** How the webhook authorizer is configured. */
export interface WebhookAuthorizerOptions {
  /** POSTs to the webhook (timeout and retries are the client's). */
  readonly client: Pick<WebhookClient, 'post'>;
  readonly version: WebhookVersion;
  readonly authorizedTTLMs: number;
  readonly unauthorizedTTLMs: number;
  /** The authorizer's name in metrics ("webhook" for the flag-configured one). */
  readonly name: string;
  readonly log: Logger;
  readonly metrics?: ServerMetrics;
  /** Clock for the cache (tests). */
  readonly now?: () => number;
}

const unsupportedRules: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' };

function shouldCache(a: AuthorizationAttributes): boolean {
  const size = a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length + a.subresource.length + a.name.length + a.path.length;
  return size < maxControlledAttrCacheSize;
}

function decide(s: ReviewStatus): AuthorizationDecision {
  if (s.denied && s.allowed) return { decision: 'Deny', reason: s.reason, error: 'webhook subject access review returned both allow and deny response' };
  if (s.denied) return { decision: 'Deny', reason: s.reason };
  if (s.allowed) return { decision: 'Allow', reason: s.reason };
  return { decision: 'NoOpinion', reason: s.reason };
}

/** --authorization-mode=Webhook. Safe to call concurrently. */
export class WebhookAuthorizer implements RuleAuthorizer {
  readonly name = 'Webhook';
  private readonly cache: LruExpireCache<ReviewStatus>;

  constructor(private readonly options: WebhookAuthorizerOptions) {
    this.cache = new LruExpireCache(cacheCapacity, options.now);
  }

  rulesFor(_user: UserInfo, _namespace: string): RulesResult {
    return unsupportedRules;
  }

  authorize(attrs: AuthorizationAttributes): MaybePromise<AuthorizationDecision> {
    const spec = reviewSpec(attrs);
    const key = JSON.stringify(spec);
    const cached = this.cache.get(key);
    if (cached) return decide(cached);
    return this.ask(attrs, spec, key);
  }

  private async ask(attrs: AuthorizationAttributes, spec: Record<string, unknown>, key: string): Promise<AuthorizationDecision> {
    const o = this.options;
    const start = process.hrtime.bigint();
    let status: ReviewStatus;
    try {
      const res = await o.client.post(reviewBody(o.version, spec));
      status = parseReviewResponse(res.body);
    } catch (err) {
      const result = err instanceof WebhookTimeoutError ? 'timeout' : 'error';
      this.record(result, start);
      o.metrics?.authorizationWebhookFailOpen.inc({ name: o.name, result });
      const message = (err as Error).message;
      o.log.error(`Failed to make webhook authorizer request: ${message}`);
      return { decision: 'NoOpinion', reason: '', error: message };
    }
    this.record('success', start);
    if (status.evaluationError) o.log.v(2, `authorization webhook ${o.name} evaluation error: ${status.evaluationError}`);
    if (shouldCache(attrs)) this.cache.add(key, status, status.allowed ? o.authorizedTTLMs : o.unauthorizedTTLMs);
    return decide(status);
  }

  private record(result: string, start: bigint): void {
    const m = this.options.metrics;
    if (!m) return;
    const labels = { name: this.options.name, result };
    m.authorizationWebhookEvaluations.inc(labels);
    m.authorizationWebhookDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
  }
}
