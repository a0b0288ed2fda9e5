/**
 * The ServiceAccount plugin's secret rules: a mirror pod may reference no service account, secret
 * or token projection; a pod whose service account carries kubernetes.io/enforce-mountable-secrets
 * "true" may use only the secrets and image pull secrets the account lists. Each returns kube's
 * message for the first violation, or undefined.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { podSecretNames } from '../../../authz/node/pod-references.js';
import type { PodSpec } from '../pod-shared/pod-types.js';

/** The annotation that makes an account's secrets list binding. */
export const enforceMountableSecretsAnnotation = 'kubernetes.io/enforce-mountable-secrets';

/** Why a mirror pod may not be created, or undefined. */
export function mirrorPodViolation(pod: KubeObject, spec: PodSpec): string | undefined {
  if (spec.serviceAccountName || spec.serviceAccount) return 'a mirror pod may not reference service accounts';
  if (podSecretNames(pod).size > 0) return 'a mirror pod may not reference secrets';
  for (const v of spec.volumes ?? []) {
    for (const src of v.projected?.sources ?? []) {
      if (src.serviceAccountToken) return 'a mirror pod may not use ServiceAccountToken volume projections';
    }
  }
  return undefined;
}

/** Go's strconv.ParseBool, false for anything it refuses. */
function parseBool(v: string): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

/** Whether the account asks for its secrets list to be enforced. */
export function enforcesMountableSecrets(account: KubeObject): boolean {
  const v = account.metadata.annotations?.[enforceMountableSecretsAnnotation];
  return v !== undefined && parseBool(v);
}

const names = (list: unknown): Set<string> =>
  new Set(Array.isArray(list) ? list.map((r) => (r as { name?: string } | null)?.name ?? '').filter((n) => n) : []);

/** The first secret the pod uses that the account does not list (kube's limitSecretReferences). */
export function secretReferenceViolation(account: KubeObject, spec: PodSpec): string | undefined {
  const sa = account.metadata.name ?? '';
  const mountable = names(account.secrets);
  for (const v of spec.volumes ?? []) {
    const secretName = v.secret?.secretName;
    if (v.secret && !mountable.has(secretName ?? '')) {
      return `volume with secret.secretName="${secretName ?? ''}" is not allowed because service account ${sa} does not reference that secret`;
    }
  }
  const envRule = (kind: string, containers: PodSpec['containers']): string | undefined => {
    for (const c of containers ?? []) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref && !mountable.has(ref.name ?? '')) {
          return `${kind} ${c.name} with envVar ${e.name} referencing secret.secretName="${ref.name ?? ''}" is not allowed because service account ${sa} does not reference that secret`;
        }
      }
    }
    return undefined;
  };
  const env = envRule('init container', spec.initContainers) ?? envRule('container', spec.containers);
  if (env) return env;
  const pull = names(account.imagePullSecrets);
  for (const [i, ref] of (spec.imagePullSecrets ?? []).entries()) {
    if (!pull.has(ref.name ?? '')) {
      return `imagePullSecrets[${i}].name="${ref.name ?? ''}" is not allowed because service account ${sa} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}
