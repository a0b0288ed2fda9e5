/**
 * The kubelet server's authentication (kubelet's delegating authenticator): a client certificate
 * verified against authentication.x509.clientCAFile (user from CN, groups from O), else a bearer
 * token checked by a TokenReview (authentication.k8s.io/v1) against the API server when
 * authentication.webhook.enabled, its answers cached for cacheTTL; a request carrying neither is
 * system:anonymous when authentication.anonymous.enabled. A presented credential that fails is
 * refused, never treated as anonymous.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ApiClient } from '../client/api-client.js';
import type { NodeAgentConfig } from '../interface.js';
import { TtlCache } from './ttl-cache.js';

/** An authenticated user (kube's user.Info). */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The outcome: a user, or why the request is unauthenticated. */
export type AuthnResult = { readonly user: UserInfo } | { readonly error: string };

/** Authenticates kubelet server requests. */
export interface KubeletAuthenticator {
  authenticate(req: IncomingMessage): Promise<AuthnResult>;
}

/** The anonymous user, as kube names it. */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

function certificateUser(req: IncomingMessage): AuthnResult | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return undefined;
  if (!socket.authorized) return { error: `verifying certificate: ${String(socket.authorizationError ?? 'unknown authority')}` };
  const cn = cert.subject?.CN;
  const org = cert.subject?.O;
  const username = Array.isArray(cn) ? (cn[0] ?? '') : (cn ?? '');
  if (username === '') return { error: 'x509: certificate has no common name' };
  return { user: { username, groups: org === undefined ? [] : Array.isArray(org) ? org : [org] } };
}

/** Builds the authenticator from the configuration; client is how TokenReviews reach the API server. */
export function createAuthenticator(config: NodeAgentConfig['authentication'], client: ApiClient, now: () => number = Date.now): KubeletAuthenticator {
  const cache = new TtlCache<AuthnResult>(now);
  const review = async (token: string): Promise<AuthnResult> => {
    const cached = cache.get(token);
    if (cached) return cached;
    const answer = await client.request<{ status?: { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }; error?: string } }>(
      'POST',
      '/apis/authentication.k8s.io/v1/tokenreviews',
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token } } },
    );
    const status = answer.status ?? {};
    const result: AuthnResult = status.authenticated
      ? {
          user: {
            username: status.user?.username ?? '',
            groups: status.user?.groups ?? [],
            ...(status.user?.uid ? { uid: status.user.uid } : {}),
            ...(status.user?.extra ? { extra: status.user.extra } : {}),
          },
        }
      : { error: status.error ? `invalid bearer token, ${status.error}` : 'invalid bearer token' };
    cache.set(token, result, config.webhook.cacheTTLMs);
    return result;
  };
  return {
    async authenticate(req) {
      const fromCert = config.x509.clientCAFile ? certificateUser(req) : undefined;
      if (fromCert) return fromCert;
      const header = req.headers.authorization;
      const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (m && config.webhook.enabled) {
        try {
          return await review(m[1] as string);
        } catch (err) {
          return { error: `token review: ${(err as Error).message}` };
        }
      }
      if (config.anonymous.enabled) return { user: anonymousUser };
      return { error: 'no credentials' };
    },
  };
}
