/**
 * Credentials for calling webhooks (kube's WebhookAdmission configuration and its
 * AuthenticationInfoResolver): the plugin's configuration names a kubeconfig whose users are the
 * hosts they authenticate to, matched exactly, then by "*." suffixes, then (for port 443) without
 * the port, then "*"; no match calls anonymously.
 */
import { isAbsolute } from 'node:path';
import { loadKubeconfigUsers, type WebhookCredentials } from '../../../webhook/kubeconfig.js';

/** Finds the credentials to present to a host. */
export interface AuthenticationResolver {
  forHost(hostPort: string): WebhookCredentials;
  forService(name: string, namespace: string, port: number): WebhookCredentials;
}

const configVersions = new Map([
  ['apiserver.config.k8s.io/v1', 'WebhookAdmissionConfiguration'],
  ['apiserver.config.k8s.io/v1alpha1', 'WebhookAdmission'],
]);

/**
 * Reads a webhook plugin's configuration (WebhookAdmissionConfiguration): its kubeConfigFile, which
 * must be an absolute path. Without configuration, webhooks are called without credentials.
 */
export async function loadAuthenticationResolver(config: unknown): Promise<AuthenticationResolver> {
  if (config === undefined || config === null) return resolverOf(new Map());
  if (typeof config !== 'object' || Array.isArray(config)) throw new Error('the webhook admission configuration must be an object');
  const c = config as Record<string, unknown>;
  const kind = configVersions.get(String(c.apiVersion));
  if (!kind || c.kind !== kind) {
    throw new Error(`unexpected type: expected WebhookAdmissionConfiguration of apiserver.config.k8s.io/v1, got ${String(c.apiVersion)}, Kind=${String(c.kind)}`);
  }
  const file = typeof c.kubeConfigFile === 'string' ? c.kubeConfigFile : '';
  if (!isAbsolute(file)) throw new Error(`kubeConfigFile: Invalid value: ${JSON.stringify(file)}: must be an absolute file path`);
  return resolverOf(await loadKubeconfigUsers(file));
}

function resolverOf(users: ReadonlyMap<string, WebhookCredentials>): AuthenticationResolver {
  const lookup = (target: string): WebhookCredentials => {
    const exact = users.get(target);
    if (exact) return exact;
    const steps = target.split('.');
    for (let i = 1; i < steps.length; i++) {
      const star = users.get(`*.${steps.slice(i).join('.')}`);
      if (star) return star;
    }
    const m = /^(.*):443$/.exec(target);
    if (m && m[1]) {
      const host = m[1];
      const noPort = users.get(host);
      if (noPort) return noPort;
      const hs = host.split('.');
      for (let i = 1; i < hs.length; i++) {
        const star = users.get(`*.${hs.slice(i).join('.')}`);
        if (star) return star;
      }
    }
    return users.get('*') ?? {};
  };
  return {
    forHost: lookup,
    forService: (name, namespace, port) => lookup(`${name}.${namespace}.svc${port !== 443 ? `:${port}` : ''}`),
  };
}
