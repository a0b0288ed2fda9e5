/**
 * Service account token Secrets (type kubernetes.io/service-account-token): which service account
 * one names, whether it lacks its token, namespace or CA, and the filled-in copy the token
 * controller writes (kube's secretUpdateNeeded and generateTokenIfNeeded).
 */
import type { KubeObject } from '../../../api/meta/types.js';

/** The Secret type the token controller fills. */
export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
/** The annotation naming the service account. */
export const nameAnnotation = 'kubernetes.io/service-account.name';
/** The annotation holding the service account's uid. */
export const uidAnnotation = 'kubernetes.io/service-account.uid';

function dataOf(secret: KubeObject): Record<string, string> {
  const d = secret.data;
  return typeof d === 'object' && d !== null ? (d as Record<string, string>) : {};
}

/** kube's IsServiceAccountToken: a token Secret naming account (and its uid, when it names one). */
export function isTokenSecretOf(secret: KubeObject, account: KubeObject): boolean {
  if (secret.type !== serviceAccountTokenType || secret.metadata.namespace !== account.metadata.namespace) return false;
  const annotations = secret.metadata.annotations ?? {};
  if (annotations[nameAnnotation] !== account.metadata.name) return false;
  const uid = annotations[uidAnnotation];
  return !uid || uid === account.metadata.uid;
}

/** What a token Secret lacks: data["ca.crt"] (when rootCA is known and differs), data.namespace, data.token. */
export function missingTokenData(secret: KubeObject, rootCA: string | undefined): { ca: boolean; namespace: boolean; token: boolean } {
  const data = dataOf(secret);
  return {
    ca: rootCA !== undefined && rootCA !== '' && data['ca.crt'] !== Buffer.from(rootCA).toString('base64'),
    namespace: !data.namespace,
    token: !data.token,
  };
}

/**
 * The Secret with what it lacks filled in and both service account annotations set (a new object;
 * secret is not mutated), or undefined when it lacks nothing. token() is called only when needed.
 */
export function filledTokenSecret(secret: KubeObject, account: KubeObject, rootCA: string | undefined, token: () => string): KubeObject | undefined {
  const missing = missingTokenData(secret, rootCA);
  if (!missing.ca && !missing.namespace && !missing.token) return undefined;
  const data = { ...dataOf(secret) };
  if (missing.ca) data['ca.crt'] = Buffer.from(rootCA as string).toString('base64');
  if (missing.namespace) data.namespace = Buffer.from(secret.metadata.namespace ?? '').toString('base64');
  if (missing.token) data.token = Buffer.from(token()).toString('base64');
  const annotations = { ...secret.metadata.annotations, [nameAnnotation]: account.metadata.name ?? '', [uidAnnotation]: account.metadata.uid ?? '' };
  return { ...secret, metadata: { ...secret.metadata, annotations }, data };
}
