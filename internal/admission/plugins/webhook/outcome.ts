/**
 * What a webhook call's outcome means for metrics and for the request, shared by both dispatchers
 * (kube's switch over ErrCallingWebhook, ErrWebhookRejection and other errors).
 */
import { StatusError } from '../../../apierrors/status-error.js';
import { newInternalError } from '../../../apierrors/factories.js';
import type { WebhookAdmissionMetrics } from '../../../observability/webhook-admission-metrics.js';
import type { AdmissionAttributes } from '../../interface.js';
import { CallingWebhookError, WebhookRejection } from './errors.js';
import type { WebhookAccessor } from './types.js';

/** kube's metric type label of each dispatcher. */
export type WebhookType = 'admit' | 'validating';

/**
 * Records a finished call (err undefined: it succeeded) and returns the error to refuse the request
 * with, or undefined to go on (success, or a failed call of a failurePolicy Ignore webhook, which
 * is counted as failing open and annotated with failedOpenKey).
 */
export function settleCall(
  metrics: WebhookAdmissionMetrics,
  type: WebhookType,
  hook: WebhookAccessor,
  attrs: AdmissionAttributes,
  seconds: number,
  err: unknown,
  failedOpenKey: string,
): Error | undefined {
  const op = attrs.operation;
  if (err === undefined) {
    metrics.observeWebhook(hook.name, type, op, false, 200, seconds);
    return undefined;
  }
  if (err instanceof CallingWebhookError) {
    const reject = !hook.failOpen;
    if (reject) metrics.observeRejection(hook.name, type, op, 'calling_webhook_error', err.statusCode);
    metrics.observeWebhook(hook.name, type, op, reject, err.statusCode, seconds);
    if (reject) return err.toStatusError();
    metrics.observeFailOpen(hook.name, type);
    attrs.addAnnotation(failedOpenKey, hook.name);
    return undefined;
  }
  if (err instanceof WebhookRejection) {
    metrics.observeRejection(hook.name, type, op, 'no_error', err.status.code);
    metrics.observeWebhook(hook.name, type, op, true, err.status.code, seconds);
    return err.status;
  }
  metrics.observeRejection(hook.name, type, op, 'apiserver_internal_error', 0);
  metrics.observeWebhook(hook.name, type, op, true, 0, seconds);
  return err instanceof StatusError ? err : newInternalError((err as Error).message);
}
