/**
 * Service account tokens of projected volumes, as kubelet's token manager gets them: a TokenRequest
 * (POST serviceaccounts/<name>/token) bound to the pod, with the projection's audience and
 * expirationSeconds (default 3600), cached and requested again once 80% of its lifetime passed
 * (or 24 hours, whichever comes first).
 */
import type { ApiClient } from '../client/api-client.js';
import type { Pod } from '../pods/types.js';

interface CachedToken {
  readonly token: string;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
}

const maxAgeMs = 24 * 3600 * 1000;

/** Caches tokens per pod, service account, audience and lifetime. */
export class TokenManager {
  private readonly cache = new Map<string, CachedToken>();

  constructor(private readonly client: ApiClient) {}

  /** A valid token for pod's service account (requests a new one when due). */
  async token(pod: Pod, audience: string | undefined, expirationSeconds: number | undefined): Promise<string> {
    const ns = pod.metadata.namespace ?? '';
    const sa = pod.spec.serviceAccountName || 'default';
    const key = `${pod.metadata.uid}/${sa}/${audience ?? ''}/${expirationSeconds ?? ''}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && !this.due(hit, now)) return hit.token;
    const body = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {
        audiences: audience ? [audience] : [],
        expirationSeconds: expirationSeconds ?? 3600,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid },
      },
    };
    const res = (await this.client.create(`/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, body)) as unknown as { status?: { token?: string; expirationTimestamp?: string } };
    const token = res.status?.token ?? '';
    const expiresAtMs = res.status?.expirationTimestamp ? Date.parse(res.status.expirationTimestamp) : now + (expirationSeconds ?? 3600) * 1000;
    this.cache.set(key, { token, issuedAtMs: now, expiresAtMs });
    return token;
  }

  private due(t: CachedToken, now: number): boolean {
    const ttl = t.expiresAtMs - t.issuedAtMs;
    return now >= t.issuedAtMs + ttl * 0.8 || now - t.issuedAtMs >= maxAgeMs;
  }

  /** When the earliest of pod's cached tokens is due, or undefined (the worker syncs then). */
  nextRefreshMs(podUid: string): number | undefined {
    let next: number | undefined;
    for (const [key, t] of this.cache) {
      if (!key.startsWith(`${podUid}/`)) continue;
      const due = Math.min(t.issuedAtMs + (t.expiresAtMs - t.issuedAtMs) * 0.8, t.issuedAtMs + maxAgeMs);
      next = next === undefined ? due : Math.min(next, due);
    }
    return next;
  }

  /** Forgets pod's tokens. */
  forget(podUid: string): void {
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${podUid}/`)) this.cache.delete(key);
  }
}
