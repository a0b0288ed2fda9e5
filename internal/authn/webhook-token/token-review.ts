/**
 * The TokenReview the token webhook is sent and the status it answers with, in
 * authentication.k8s.io v1 or v1beta1 (the two have the same shape). The answer is checked field
 * by field, since it comes from another program: a malformed answer is an error, never a user.
 */
import type { UserInfo } from '../../request/context.js';
import type { TokenWebhookVersion } from '../../server/options/authentication-webhook.js';

/** The TokenReview sent for token with the audiences wanted (none: the review names none). */
export function tokenReviewRequest(version: TokenWebhookVersion, token: string, audiences: readonly string[]): Record<string, unknown> {
  return {
    apiVersion: `authentication.k8s.io/${version}`,
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token, ...(audiences.length > 0 ? { audiences: [...audiences] } : {}) },
    status: { user: {} },
  };
}

/** What the webhook said. */
export interface TokenReviewStatus {
  readonly authenticated: boolean;
  /** The user, when authenticated. */
  readonly user?: UserInfo;
  readonly audiences: readonly string[];
  readonly error: string;
}

function stringList(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`${what} must be a list of strings`);
  return v as string[];
}

function optionalString(v: unknown, what: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`${what} must be a string`);
  return v;
}

function userOf(v: unknown): UserInfo {
  if (v === undefined || v === null) return { name: '', groups: [] };
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error('status.user must be an object');
  const u = v as Record<string, unknown>;
  const uid = optionalString(u.uid, 'status.user.uid');
  let extra: Record<string, string[]> | undefined;
  if (u.extra !== undefined && u.extra !== null) {
    if (typeof u.extra !== 'object' || Array.isArray(u.extra)) throw new Error('status.user.extra must be an object');
    extra = {};
    for (const [k, val] of Object.entries(u.extra as Record<string, unknown>)) extra[k] = stringList(val, `status.user.extra[${JSON.stringify(k)}]`);
  }
  return {
    name: optionalString(u.username, 'status.user.username'),
    ...(uid ? { uid } : {}),
    groups: stringList(u.groups, 'status.user.groups'),
    ...(extra ? { extra } : {}),
  };
}

/**
 * Reads the webhook's answer. Accepts either authentication.k8s.io version (or none named), as
 * kube's decoder converts between them; throws on anything that is not a TokenReview.
 */
export function parseTokenReview(body: Buffer): TokenReviewStatus {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new Error(`the webhook answered with invalid JSON: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('the webhook answered with something other than a TokenReview');
  const review = doc as Record<string, unknown>;
  const apiVersion = review.apiVersion;
  const kind = review.kind;
  if ((apiVersion !== undefined && apiVersion !== 'authentication.k8s.io/v1' && apiVersion !== 'authentication.k8s.io/v1beta1') || (kind !== undefined && kind !== 'TokenReview')) {
    throw new Error(`the webhook answered with ${String(apiVersion)}, Kind=${String(kind)} instead of an authentication.k8s.io TokenReview`);
  }
  const status = review.status ?? {};
  if (typeof status !== 'object' || status === null || Array.isArray(status)) throw new Error('status must be an object');
  const s = status as Record<string, unknown>;
  if (s.authenticated !== undefined && s.authenticated !== null && typeof s.authenticated !== 'boolean') throw new Error('status.authenticated must be a boolean');
  const authenticated = s.authenticated === true;
  return {
    authenticated,
    ...(authenticated ? { user: userOf(s.user) } : {}),
    audiences: stringList(s.audiences, 'status.audiences'),
    error: optionalString(s.error, 'status.error'),
  };
}
