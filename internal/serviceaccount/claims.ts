/**
 * The claims of service account tokens, as kube writes them (pkg/serviceaccount/claims.go and
 * legacy.go): bound tokens carry iss, sub, aud, exp, iat, nbf, jti and a "kubernetes.io" object
 * naming the namespace, the service account and the object the token is bound to; legacy
 * (Secret-based) tokens carry the "kubernetes/serviceaccount" issuer and four flat private claims.
 * Keys come out sorted at every level, as Go's map encoding writes them.
 */
import { randomUUID } from 'node:crypto';

/** The expiration kube's projected volumes ask for, which triggers the extension (1 hour 7 seconds). */
export const warnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
/** How long an extended token lives (one year). */
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;
/** The issuer of legacy Secret-based tokens. */
export const legacyIssuer = 'kubernetes/serviceaccount';
/** jwt.DefaultLeeway: clock skew tolerated on exp, nbf and iat, and on deletion timestamps. */
export const leewaySeconds = 60;

/** A name and uid reference inside the "kubernetes.io" claim (uid omitted when empty). */
export interface ObjectRef {
  readonly name: string;
  readonly uid?: string;
}

/** What a bound token is issued for. */
export interface BoundTokenInput {
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  /** Non-zero: kubernetes.io.warnafter is now plus this many seconds. */
  readonly warnAfterSeconds?: number;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  /** A pod-bound token's node, or the node a token is bound to. */
  readonly node?: ObjectRef;
  /** Issue time in epoch seconds (now by default). */
  readonly now?: number;
  /** The jti (a random UUID by default). */
  readonly jti?: string;
}

/** The "system:serviceaccount:<namespace>:<name>" user name. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The namespace and name of a service account user name, or undefined when it is not one. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

function ref(r: ObjectRef): Record<string, string> {
  return r.uid ? { name: r.name, uid: r.uid } : { name: r.name };
}

/**
 * The claims of a bound token (without iss, which the generator adds and sorts in). Throws when
 * bound to a secret and a pod or node at once, as kube does.
 */
export function boundClaims(input: BoundTokenInput): Record<string, unknown> {
  if (input.secret && (input.pod || input.node)) throw new Error('internal error, token can only be bound to one object type');
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const k8s: Record<string, unknown> = { namespace: input.namespace };
  if (input.node) k8s.node = ref(input.node);
  if (input.pod) k8s.pod = ref(input.pod);
  if (input.secret) k8s.secret = ref(input.secret);
  k8s.serviceaccount = ref(input.serviceAccount);
  if (input.warnAfterSeconds) k8s.warnafter = now + input.warnAfterSeconds;
  return {
    aud: [...input.audiences],
    exp: now + input.expirationSeconds,
    iat: now,
    jti: input.jti ?? randomUUID(),
    'kubernetes.io': k8s,
    nbf: now,
    sub: serviceAccountUsername(input.namespace, input.serviceAccount.name),
  };
}

/** The claims of a legacy Secret-based token for a service account and its secret (without iss). */
export function legacyClaims(sa: { namespace: string; name: string; uid: string }, secretName: string): Record<string, unknown> {
  return {
    'kubernetes.io/serviceaccount/namespace': sa.namespace,
    'kubernetes.io/serviceaccount/secret.name': secretName,
    'kubernetes.io/serviceaccount/service-account.name': sa.name,
    'kubernetes.io/serviceaccount/service-account.uid': sa.uid,
    sub: serviceAccountUsername(sa.namespace, sa.name),
  };
}
