/**
 * Registry credentials from a pod's imagePullSecrets (kubernetes.io/dockerconfigjson and
 * kubernetes.io/dockercfg), matched to an image's registry as kubelet's credential keyring does
 * (by host; Docker Hub's names are one registry).
 */
import type { AuthConfig } from '../../../proto/cri/v1/types.js';
import type { DataMap } from '../pods/config-objects.js';

const dockerHub = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'https://index.docker.io/v1/']);

/** The registry host of an image reference (docker.io for short names). */
export function registryOf(image: string): string {
  const first = image.split('/')[0]!;
  if (image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')) return first;
  return 'docker.io';
}

function hostOfKey(key: string): string {
  if (dockerHub.has(key)) return 'docker.io';
  return key.replace(/^https?:\/\//, '').split('/')[0]!;
}

/** The AuthConfigs in secrets' docker configs that match image's registry. */
export function credentialsFor(image: string, secrets: readonly DataMap[]): AuthConfig[] {
  const registry = registryOf(image);
  const out: AuthConfig[] = [];
  for (const data of secrets) {
    let auths: Record<string, { username?: string; password?: string; auth?: string; identitytoken?: string }> = {};
    try {
      const json = data.get('.dockerconfigjson');
      if (json) auths = (JSON.parse(json.toString('utf8')) as { auths?: typeof auths }).auths ?? {};
      const cfg = data.get('.dockercfg');
      if (cfg) auths = { ...auths, ...(JSON.parse(cfg.toString('utf8')) as typeof auths) };
    } catch {
      continue;
    }
    for (const [key, a] of Object.entries(auths)) {
      if (hostOfKey(key) !== registry) continue;
      let { username, password } = a;
      if (a.auth && !username) {
        const decoded = Buffer.from(a.auth, 'base64').toString('utf8');
        const i = decoded.indexOf(':');
        username = decoded.slice(0, i);
        password = decoded.slice(i + 1);
      }
      out.push({ username: username ?? '', password: password ?? '', server_address: key, ...(a.identitytoken ? { identity_token: a.identitytoken } : {}) });
    }
  }
  return out;
}
