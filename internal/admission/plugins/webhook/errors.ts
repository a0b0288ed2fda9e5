/**
 * The errors of a webhook call as kube tells them apart: ErrCallingWebhook (the webhook could not be
 * asked or answered nonsense; failurePolicy decides), a rejection (the webhook said no: its Status),
 * and kube's texts for both.
 */
import type { Status } from '../../../../api/meta/types.js';
import { newBadRequest, newInternalError } from '../../../apierrors/factories.js';
import { StatusError, type StatusReason } from '../../../apierrors/status-error.js';

/** The webhook could not be called or answered badly (kube's ErrCallingWebhook). */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
    /** The Status code the metrics report for this failure. */
    readonly statusCode: number,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
    this.name = 'CallingWebhookError';
  }

  /** What the client gets when the failure policy is Fail: 500 InternalError. */
  toStatusError(): StatusError {
    return newInternalError(this.message);
  }
}

/** The webhook refused the request (kube's ErrWebhookRejection). */
export class WebhookRejection extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
    this.name = 'WebhookRejection';
  }
}

/** A partial metav1.Status as a webhook's response.status carries it. */
export interface ResultStatus {
  readonly code?: number;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: Status['details'];
  readonly metadata?: Record<string, unknown>;
}

/**
 * kube's ToStatusErr: the refusal the client sees, from the webhook's result. The code is at least
 * 400, and the message names the webhook: `admission webhook "x" denied the request: <message>`,
 * the reason when there is no message, or "without explanation".
 */
export function rejectionStatus(webhookName: string, result: ResultStatus | undefined | null): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const r = result ?? {};
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = r.message ? `${deniedBy}: ${r.message}` : r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  const err = new StatusError(code, (r.reason ?? '') as StatusReason, message, r.details ?? undefined);
  // A webhook's own status word is kept unless it claims success.
  if (r.status && r.status !== 'Success') (err.status as { status: string }).status = r.status;
  return err;
}

/** kube's NewDryRunUnsupportedErr: a dry run reached a webhook that may have side effects. */
export function dryRunUnsupported(webhookName: string): StatusError {
  return newBadRequest(`admission webhook ${JSON.stringify(webhookName)} does not support dry run`);
}
