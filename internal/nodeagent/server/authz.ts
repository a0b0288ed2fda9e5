/**
 * The kubelet server's authorization (kubelet's nodeAuthorizerAttributesGetter and the delegating
 * authorizer): a request becomes resource attributes on this node (group "", version v1, resource
 * nodes, name = the node name), verb from the HTTP method, subresource proxy unless the path is
 * /stats (stats), /metrics (metrics), /logs (log) or /checkpoint (checkpoint); with kubelet 1.33's
 * fine-grained authorization (KubeletFineGrainedAuthz, beta and on) /pods and /healthz are first
 * tried as nodes/pods and nodes/healthz, /configz as nodes/configz, falling back to nodes/proxy.
 * Webhook mode asks the API server with a SubjectAccessReview (authorization.k8s.io/v1) and caches
 * allowed answers for cacheAuthorizedTTL and denied ones for cacheUnauthorizedTTL.
 */
import type { ApiClient } from '../client/api-client.js';
import type { NodeAgentConfig } from '../interface.js';
import type { UserInfo } from './authn.js';
import { TtlCache } from './ttl-cache.js';

/** The attributes of one authorization check (kube's authorizer.AttributesRecord, resource form). */
export interface KubeletAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly resource: 'nodes';
  readonly subresource: string;
  readonly name: string;
}

/** Decides one check; rejects when the decision could not be made (an authorization error). */
export interface KubeletAuthorizer {
  authorize(attrs: KubeletAttributes): Promise<boolean>;
}

const methodVerbs: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

function isSubpath(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/** The checks for a request, in order: the first allowed one admits it. */
export function requestAttributes(user: UserInfo, method: string, path: string, nodeName: string): KubeletAttributes[] {
  const verb = methodVerbs[method] ?? '';
  const base = { user, verb, resource: 'nodes' as const, name: nodeName };
  let subresource = 'proxy';
  if (isSubpath(path, '/stats')) subresource = 'stats';
  else if (isSubpath(path, '/metrics')) subresource = 'metrics';
  else if (isSubpath(path, '/logs')) subresource = 'log';
  else if (isSubpath(path, '/checkpoint')) subresource = 'checkpoint';
  const fine = isSubpath(path, '/pods') ? 'pods' : isSubpath(path, '/healthz') ? 'healthz' : isSubpath(path, '/configz') ? 'configz' : undefined;
  return fine ? [{ ...base, subresource: fine }, { ...base, subresource }] : [{ ...base, subresource }];
}

/** AlwaysAllow, or the SubjectAccessReview webhook with its caches. */
export function createAuthorizer(config: NodeAgentConfig['authorization'], client: ApiClient, now: () => number = Date.now): KubeletAuthorizer {
  if (config.mode === 'AlwaysAllow') return { authorize: async () => true };
  const cache = new TtlCache<boolean>(now);
  return {
    async authorize(attrs) {
      const spec = {
        resourceAttributes: { verb: attrs.verb, group: '', version: 'v1', resource: attrs.resource, subresource: attrs.subresource, name: attrs.name },
        user: attrs.user.username,
        groups: attrs.user.groups,
        ...(attrs.user.uid ? { uid: attrs.user.uid } : {}),
        ...(attrs.user.extra ? { extra: attrs.user.extra } : {}),
      };
      const key = JSON.stringify(spec);
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const answer = await client.request<{ status?: { allowed?: boolean; denied?: boolean } }>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec },
      });
      const allowed = answer.status?.allowed === true;
      cache.set(key, allowed, allowed ? config.webhook.cacheAuthorizedTTLMs : config.webhook.cacheUnauthorizedTTLMs);
      return allowed;
    },
  };
}
