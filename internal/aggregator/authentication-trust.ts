/**
 * kube's cluster authentication trust controller: publishes in kube-system/
 * extension-apiserver-authentication what extension API servers need to trust this server's
 * callers: client-ca-file (--client-ca-file) and, with --requestheader-client-ca-file, that CA and
 * the requestheader header names and allowed names (JSON arrays). CA bundles are merged with what
 * other servers of the cluster published (each certificate once). Checked at start and every minute.
 */
import { readFile } from 'node:fs/promises';
import type { KubeObject } from '../../api/meta/types.js';
import { hasReason } from '../apierrors/status-error.js';
import { periodic } from '../controllers/periodic.js';
import { ResourceClient } from '../controllers/resource-client.js';
import type { InServerController } from '../server/in-server-controllers.js';

/** The ConfigMap's namespace and name. */
export const authenticationConfigMap = { namespace: 'kube-system', name: 'extension-apiserver-authentication' };

function pemBlocks(text: string | undefined): string[] {
  return (text ?? '').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
}

/** The union of the certificates of two bundles, existing ones first. */
export function mergeBundles(existing: string | undefined, own: string): string {
  const out: string[] = [];
  for (const block of [...pemBlocks(existing), ...pemBlocks(own)]) if (!out.includes(block)) out.push(block);
  return out.map((b) => `${b}\n`).join('');
}

/** The data this server publishes, merged into existing (which it does not mutate). */
export async function authenticationData(options: { clientCAFile?: string; requestHeader?: { clientCAFile: string; usernameHeaders: readonly string[]; uidHeaders: readonly string[]; groupHeaders: readonly string[]; extraHeaderPrefixes: readonly string[]; allowedNames: readonly string[] } }, existing: Record<string, string>): Promise<Record<string, string>> {
  const data = { ...existing };
  if (options.clientCAFile) data['client-ca-file'] = mergeBundles(existing['client-ca-file'], await readFile(options.clientCAFile, 'utf8'));
  const rh = options.requestHeader;
  if (rh) {
    data['requestheader-client-ca-file'] = mergeBundles(existing['requestheader-client-ca-file'], await readFile(rh.clientCAFile, 'utf8'));
    data['requestheader-username-headers'] = JSON.stringify(rh.usernameHeaders);
    data['requestheader-uid-headers'] = JSON.stringify(rh.uidHeaders);
    data['requestheader-group-headers'] = JSON.stringify(rh.groupHeaders);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(rh.extraHeaderPrefixes);
    data['requestheader-allowed-names'] = JSON.stringify(rh.allowedNames);
  }
  return data;
}

/** The controller, for the in-server list (idle without --client-ca-file and --requestheader-client-ca-file). */
export const clusterAuthenticationTrustController: InServerController = {
  name: 'cluster-authentication-trust-controller',
  start(deps) {
    const authn = deps.options.authentication;
    if (!authn?.clientCAFile && !authn?.requestHeader) return () => undefined;
    const client = new ResourceClient(deps.storageOf('', 'configmaps') as NonNullable<ReturnType<typeof deps.storageOf>>, '', 'configmaps');
    const { namespace, name } = authenticationConfigMap;
    return periodic(
      async () => {
        let have: KubeObject | undefined;
        try {
          have = await client.get(name, namespace);
        } catch (err) {
          if (!hasReason(err, 'NotFound')) throw err;
        }
        const existing = (have?.data ?? {}) as Record<string, string>;
        const data = await authenticationData(authn, existing);
        if (have && JSON.stringify(data) === JSON.stringify(existing)) return;
        if (!have) {
          await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
          return;
        }
        await client.update(name, namespace, (cm) => ({ ...cm, data }));
      },
      60_000,
      (err) => deps.log.warn(`cluster-authentication-trust-controller: ${err.message}`),
      deps.shutdown,
    );
  },
};
