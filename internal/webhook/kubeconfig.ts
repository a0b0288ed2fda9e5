/**
 * Webhook configuration files in kubeconfig format, as kube-apiserver reads them for the token
 * webhook, the authorization webhook, the audit webhook and admission webhooks: the current
 * context's cluster (server, CA) and user (client certificate, token). Relative file paths are
 * resolved against the kubeconfig's own directory; inline `-data` fields are base64.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** What a webhook client needs from a kubeconfig. */
export interface WebhookTarget {
  /** The URL requests are POSTed to (the cluster's server). */
  readonly server: string;
  readonly ca?: Buffer;
  readonly insecureSkipTLSVerify: boolean;
  readonly tlsServerName?: string;
  readonly clientCert?: Buffer;
  readonly clientKey?: Buffer;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

type Named<T> = { name?: unknown } & Record<string, T>;

function asRecord(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what} must be an object`);
  return v as Record<string, unknown>;
}

function findNamed(list: unknown, key: string, name: string | undefined, what: string): Record<string, unknown> | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw new Error(`${what} must be a list`);
  const entries = list.map((e) => asRecord(e, what) as Named<unknown>);
  const found = name === undefined ? entries[0] : entries.find((e) => e.name === name);
  if (!found) return undefined;
  return found[key] === undefined ? {} : asRecord(found[key], `${what} ${String(found.name)}.${key}`);
}

async function fileOrData(base: string, entry: Record<string, unknown>, fileKey: string, dataKey: string): Promise<Buffer | undefined> {
  const data = entry[dataKey];
  if (typeof data === 'string' && data.length > 0) return Buffer.from(data, 'base64');
  const file = entry[fileKey];
  if (typeof file === 'string' && file.length > 0) return await readFile(isAbsolute(file) ? file : resolve(base, file));
  return undefined;
}

/**
 * Reads a kubeconfig for a webhook. Without a current-context (or a context naming its cluster)
 * the first cluster and user are used, as kube's webhook loader does for single-entry files.
 * Throws with the file's name on anything missing or malformed.
 */
export function loadWebhookKubeconfig(path: string): Promise<WebhookTarget> {
  return loadKubeconfigTarget(path, { what: 'webhook kubeconfig', clients: 'webhooks' });
}

/**
 * Reads a kubeconfig's current context (cluster and user) for any in-process client: what says
 * what the file is in messages ("invalid <what> <path>: ..."), clients who cannot use exec or
 * auth-provider credentials ("... are not supported for <clients>").
 */
export async function loadKubeconfigTarget(path: string, naming: { readonly what: string; readonly clients: string }): Promise<WebhookTarget> {
  let doc: Record<string, unknown>;
  try {
    doc = asRecord(parseYaml(await readFile(path, 'utf8')), 'the kubeconfig');
  } catch (err) {
    throw new Error(`invalid ${naming.what} ${path}: ${(err as Error).message}`);
  }
  try {
    const base = dirname(path);
    const currentName = typeof doc['current-context'] === 'string' && doc['current-context'] ? (doc['current-context'] as string) : undefined;
    const context = currentName ? findNamed(doc.contexts, 'context', currentName, 'contexts') : undefined;
    if (currentName && !context) throw new Error(`current-context ${JSON.stringify(currentName)} is not in contexts`);
    const clusterName = typeof context?.cluster === 'string' ? context.cluster : undefined;
    const userName = typeof context?.user === 'string' ? context.user : undefined;
    const cluster = findNamed(doc.clusters, 'cluster', clusterName, 'clusters');
    if (!cluster) throw new Error(clusterName ? `cluster ${JSON.stringify(clusterName)} was not found for context ${JSON.stringify(currentName)}` : 'no cluster');
    const namedUser = findNamed(doc.users, 'user', userName, 'users');
    if (userName && !namedUser) throw new Error(`user ${JSON.stringify(userName)} was not found for context ${JSON.stringify(currentName)}`);
    const user = namedUser ?? {};
    // Credentials this loader cannot produce are refused rather than silently sent without.
    for (const k of ['exec', 'auth-provider']) if (user[k] !== undefined && user[k] !== null) throw new Error(`user.${k} credentials are not supported for ${naming.clients}`);
    const server = cluster.server;
    if (typeof server !== 'string' || !/^https?:\/\//.test(server)) throw new Error('the cluster has no http(s) server URL');
    const ca = await fileOrData(base, cluster, 'certificate-authority', 'certificate-authority-data');
    const clientCert = await fileOrData(base, user, 'client-certificate', 'client-certificate-data');
    const clientKey = await fileOrData(base, user, 'client-key', 'client-key-data');
    if (Boolean(clientCert) !== Boolean(clientKey)) throw new Error('client-certificate and client-key must be given together');
    let token = typeof user.token === 'string' && user.token ? user.token : undefined;
    if (!token && typeof user.tokenFile === 'string' && user.tokenFile) {
      token = (await readFile(isAbsolute(user.tokenFile) ? user.tokenFile : resolve(base, user.tokenFile), 'utf8')).trim();
    }
    return {
      server,
      insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
      ...(ca ? { ca } : {}),
      ...(typeof cluster['tls-server-name'] === 'string' ? { tlsServerName: cluster['tls-server-name'] } : {}),
      ...(clientCert && clientKey ? { clientCert, clientKey } : {}),
      ...(token ? { token } : {}),
      ...(typeof user.username === 'string' ? { username: user.username } : {}),
      ...(typeof user.password === 'string' ? { password: user.password } : {}),
    };
  } catch (err) {
    throw new Error(`invalid ${naming.what} ${path}: ${(err as Error).message}`);
  }
}

/** A kubeconfig user's credentials for a webhook call (client certificate, token, basic auth). */
export type WebhookCredentials = Pick<WebhookTarget, 'clientCert' | 'clientKey' | 'token' | 'username' | 'password'>;

/**
 * Reads every user of a kubeconfig by name (kube's admission webhook kubeconfig, whose user names
 * are the hosts they authenticate to: "<service>.<namespace>.svc", "host:port", "*.example.com",
 * "*"). Throws with the file's name on anything malformed.
 */
export async function loadKubeconfigUsers(path: string): Promise<Map<string, WebhookCredentials>> {
  const out = new Map<string, WebhookCredentials>();
  try {
    const doc = asRecord(parseYaml(await readFile(path, 'utf8')), 'the kubeconfig');
    const base = dirname(path);
    const users = doc.users ?? [];
    if (!Array.isArray(users)) throw new Error('users must be a list');
    for (const entry of users) {
      const named = asRecord(entry, 'users') as Named<unknown>;
      if (typeof named.name !== 'string') throw new Error('a user has no name');
      const user = named.user === undefined || named.user === null ? {} : asRecord(named.user, `user ${named.name}`);
      for (const k of ['exec', 'auth-provider']) if (user[k] !== undefined && user[k] !== null) throw new Error(`user.${k} credentials are not supported for webhooks`);
      const clientCert = await fileOrData(base, user, 'client-certificate', 'client-certificate-data');
      const clientKey = await fileOrData(base, user, 'client-key', 'client-key-data');
      if (Boolean(clientCert) !== Boolean(clientKey)) throw new Error(`user ${named.name}: client-certificate and client-key must be given together`);
      let token = typeof user.token === 'string' && user.token ? user.token : undefined;
      if (!token && typeof user.tokenFile === 'string' && user.tokenFile) {
        token = (await readFile(isAbsolute(user.tokenFile) ? user.tokenFile : resolve(base, user.tokenFile), 'utf8')).trim();
      }
      out.set(named.name, {
        ...(clientCert && clientKey ? { clientCert, clientKey } : {}),
        ...(token ? { token } : {}),
        ...(typeof user.username === 'string' ? { username: user.username } : {}),
        ...(typeof user.password === 'string' ? { password: user.password } : {}),
      });
    }
  } catch (err) {
    throw new Error(`invalid webhook kubeconfig ${path}: ${(err as Error).message}`);
  }
  return out;
}
