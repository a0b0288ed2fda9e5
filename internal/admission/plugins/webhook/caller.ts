/**
 * One webhook call as both dispatchers make it (kube's callHook / callAttrMutatingHook up to the
 * answer): the dry-run check against sideEffects, the AdmissionReview in the webhook's version,
 * the POST within timeoutSeconds (and the request's deadline), the answer's checks, then its audit
 * annotations ("<webhook name>/<key>") and warnings. A refusal is returned, not thrown, so the
 * caller can record it.
 */
import { addWarning, type RequestContext } from '../../../request/context.js';
import { newTimeoutError } from '../../../apierrors/factories.js';
import type { AuthenticationResolver } from './authentication.js';
import { CallError, HookClient } from './client.js';
import { CallingWebhookError, dryRunUnsupported } from './errors.js';
import { createAdmissionReview, UndecodablePatchError, verifyAdmissionResponse, type AdmissionResult } from './review.js';
import type { AddressResolver } from './service-resolver.js';
import type { WebhookAccessor } from './types.js';
import type { VersionedAttributes } from './versioned.js';

/** Calls webhooks, keeping one client per distinct clientConfig. */
export class WebhookCaller {
  private readonly clients = new Map<string, HookClient>();

  constructor(
    private readonly auth: AuthenticationResolver,
    private readonly services: AddressResolver,
  ) {}

  private clientFor(hook: WebhookAccessor): HookClient {
    const key = JSON.stringify(hook.spec.clientConfig);
    let c = this.clients.get(key);
    if (!c) {
      c = new HookClient(hook.spec.clientConfig, this.auth, this.services);
      this.clients.set(key, c);
    }
    return c;
  }

  /**
   * Calls hook; resolves with its checked answer. Throws CallingWebhookError when it cannot be
   * asked or answers badly, and a StatusError for a dry run it may not see or a request past its
   * deadline.
   */
  async call(hook: WebhookAccessor, va: VersionedAttributes, mutating: boolean, ctx: RequestContext): Promise<AdmissionResult> {
    if (va.attrs.dryRun) {
      const se = hook.spec.sideEffects;
      if (se === undefined) throw new CallingWebhookError(hook.name, 'Webhook SideEffects is nil', 400);
      if (se !== 'None' && se !== 'NoneOnDryRun') throw dryRunUnsupported(hook.name);
    }
    let timeoutMs = hook.timeoutSeconds * 1000;
    if (ctx.deadline !== undefined) {
      const left = ctx.deadline - Date.now();
      if (left <= 0) throw newTimeoutError('request did not complete within requested timeout', 0);
      timeoutMs = Math.min(timeoutMs, left);
    }
    const { uid, review } = createAdmissionReview(va.reviewInput(), hook.reviewVersion);
    let body: unknown;
    try {
      body = await this.clientFor(hook).post(review, timeoutMs, ctx.signal);
    } catch (err) {
      if (err instanceof CallError) throw new CallingWebhookError(hook.name, `failed to call webhook: ${err.message}`, err.statusCode || 503);
      throw new CallingWebhookError(hook.name, `failed to call webhook: ${(err as Error).message}`, 500);
    }
    let result: AdmissionResult;
    try {
      result = verifyAdmissionResponse(uid, hook.reviewVersion, mutating, body);
    } catch (err) {
      if (err instanceof UndecodablePatchError) throw new CallingWebhookError(hook.name, `received undecodable patch in webhook response: ${err.message}`, 503);
      throw new CallingWebhookError(hook.name, `received invalid webhook response: ${(err as Error).message}`, 503);
    }
    for (const [k, v] of Object.entries(result.auditAnnotations)) va.attrs.addAnnotation(`${hook.name}/${k}`, v);
    for (const w of result.warnings) addWarning(ctx, w);
    return result;
  }

  /** Ends every client's connections. */
  close(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}
