/**
 * The node agent's kubeconfigs: reading --kubeconfig and --bootstrap-kubeconfig (the current
 * context's cluster and user, through the loader webhooks use), checking whether a kubeconfig's
 * client certificate is still usable, and writing the kubeconfig the bootstrap produces (kubelet's
 * default-cluster / default-auth / default-context, the user pointing at kubelet-client-current.pem).
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import { loadKubeconfigTarget, type WebhookTarget } from '../../webhook/kubeconfig.js';
import { validityOf } from './store.js';

/** A kubeconfig's cluster and credentials. */
export type KubeconfigTarget = WebhookTarget;

/** Reads a kubeconfig for the node agent; throws "invalid kubeconfig <path>: ..." when malformed. */
export function loadNodeKubeconfig(path: string): Promise<KubeconfigTarget> {
  return loadKubeconfigTarget(path, { what: 'kubeconfig', clients: 'the node agent' });
}

/**
 * Whether the kubeconfig at path exists, loads, and (when it carries a client certificate) that
 * certificate has not expired (kubelet's isClientConfigStillValid); the reason when not.
 */
export async function kubeconfigStillValid(path: string, now = new Date()): Promise<{ ok: true; target: KubeconfigTarget } | { ok: false; reason: string }> {
  try {
    await access(path);
  } catch {
    return { ok: false, reason: `the kubeconfig ${path} does not exist` };
  }
  let target: KubeconfigTarget;
  try {
    target = await loadNodeKubeconfig(path);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  if (target.clientCert) {
    try {
      const { notAfter } = validityOf(target.clientCert.toString('utf8'));
      if (now > notAfter) return { ok: false, reason: `Part of the existing bootstrap client certificate in ${path} is expired: ${notAfter.toISOString()}` };
    } catch (err) {
      return { ok: false, reason: `unable to read existing bootstrap client config from ${path}: ${(err as Error).message}` };
    }
  }
  return { ok: true, target };
}

/** Writes the kubeconfig kubelet writes after bootstrapping: the bootstrap's cluster, the stored pair as the user. */
export async function writeBootstrappedKubeconfig(path: string, cluster: KubeconfigTarget, pairPath: string): Promise<void> {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'default-cluster',
        cluster: {
          server: cluster.server,
          ...(cluster.ca ? { 'certificate-authority-data': cluster.ca.toString('base64') } : {}),
          ...(cluster.insecureSkipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
          ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
        },
      },
    ],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', namespace: 'default', user: 'default-auth' } }],
    'current-context': 'default-context',
    preferences: {},
    users: [{ name: 'default-auth', user: { 'client-certificate': pairPath, 'client-key': pairPath } }],
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, stringify(doc), { mode: 0o600 });
}
