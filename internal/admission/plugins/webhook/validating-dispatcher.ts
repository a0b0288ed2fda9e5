/**
 * Validating webhooks (kube's validating dispatcher): every matching webhook is called at once, in
 * parallel; the first refusal to arrive refuses the request. Webhooks may not patch.
 */
import { newTimeoutError } from '../../../apierrors/factories.js';
import type { WebhookAdmissionMetrics } from '../../../observability/webhook-admission-metrics.js';
import type { RequestContext } from '../../../request/context.js';
import type { WebhookCaller } from './caller.js';
import { rejectionStatus, WebhookRejection } from './errors.js';
import type { Authorizer } from '../../../authz/interface.js';
import { rulesMatch, shouldCallHook, type NamespaceLookup, type VersionsLookup } from './matcher.js';
import { settleCall } from './outcome.js';
import type { WebhookAccessor } from './types.js';
import type { VersionedAttributes } from './versioned.js';

const failedOpenPrefix = 'failed-open.validating.webhook.admission.k8s.io/';

/** Runs validating webhooks over one request. */
export class ValidatingDispatcher {
  constructor(
    private readonly caller: WebhookCaller,
    private readonly namespaces: NamespaceLookup,
    private readonly metrics: WebhookAdmissionMetrics,
    private readonly versionsOf?: VersionsLookup,
    private readonly authorizer?: () => Authorizer,
  ) {}

  /** Calls the matching webhooks in parallel; throws the first refusal. */
  async dispatch(hooks: readonly WebhookAccessor[], va: VersionedAttributes, ctx: RequestContext): Promise<void> {
    const relevant: Array<{ hook: WebhookAccessor; index: number; attrs: VersionedAttributes }> = [];
    // One set of attributes per version webhooks are called in (kube converts once per kind).
    const byVersion = new Map<string, VersionedAttributes>();
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i] as WebhookAccessor;
      const match = rulesMatch(hook, va, this.versionsOf);
      if (!match) continue;
      const inVersion = () => {
        const key = `${match.version}|${match.versioning.apiVersion}|${match.versioning.kind}`;
        let attrs = byVersion.get(key);
        if (!attrs) {
          attrs = match.versioning === va.requestVersioning ? va : va.inVersion(match.versioning, match.version);
          byVersion.set(key, attrs);
        }
        return attrs;
      };
      if (await shouldCallHook(hook, va, this.namespaces, inVersion, this.authorizer)) relevant.push({ hook, index: i, attrs: inVersion() });
    }
    if (relevant.length === 0) return;
    if (ctx.signal.aborted) throw newTimeoutError('request did not complete within requested timeout', 0);
    const refusals: Error[] = [];
    await Promise.all(
      relevant.map(async ({ hook, index, attrs }) => {
        const started = performance.now();
        let error: unknown;
        try {
          const result = await this.caller.call(hook, attrs, false, ctx);
          if (!result.allowed) throw new WebhookRejection(rejectionStatus(hook.name, result.result));
        } catch (err) {
          error = err;
        }
        const refusal = settleCall(this.metrics, 'validating', hook, va.attrs, (performance.now() - started) / 1000, error, `${failedOpenPrefix}round_0_index_${index}`);
        if (refusal) refusals.push(refusal);
      }),
    );
    if (refusals.length > 0) throw refusals[0];
  }
}
