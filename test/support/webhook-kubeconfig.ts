/**
 * Test support: the kubeconfig a webhook flag of kube-apiserver reads (token, authorization and
 * audit webhooks): one cluster with the webhook's URL and CA, one user with an optional bearer
 * token, written next to the CA's file in dir.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the kubeconfig names. */
export interface WebhookKubeconfig {
  /** The kubeconfig's file name in dir. */
  readonly fileName: string;
  /** The CA file's name in dir (written), referenced as certificate-authority. */
  readonly caFileName: string;
  readonly caPem: string;
  readonly server: string;
  /** The cluster's and context's name. */
  readonly cluster: string;
  /** The bearer token the API server presents; absent: none. */
  readonly token?: string;
}

/** Writes the CA and the kubeconfig into dir; returns the kubeconfig's path. */
export async function writeWebhookKubeconfig(dir: string, k: WebhookKubeconfig): Promise<string> {
  await writeFile(join(dir, k.caFileName), k.caPem);
  const path = join(dir, k.fileName);
  const lines = ['apiVersion: v1', 'kind: Config', 'clusters:', `- name: ${k.cluster}`, '  cluster:', `    server: ${k.server}`, `    certificate-authority: ${k.caFileName}`];
  lines.push('users:', '- name: apiserver', k.token ? '  user:' : '  user: {}', ...(k.token ? [`    token: ${k.token}`] : []));
  lines.push('contexts:', `- name: ${k.cluster}`, '  context:', `    cluster: ${k.cluster}`, '    user: apiserver', `current-context: ${k.cluster}`, '');
  await writeFile(path, lines.join('\n'));
  return path;
}
