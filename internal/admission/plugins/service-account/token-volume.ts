/**
 * The service account token volume the ServiceAccount plugin adds to pods (kube's
 * TokenVolumeSource): a projected volume "kube-api-access-<5 random characters>" with the bound
 * token at "token" (expirationSeconds 3607: kube's warn-only bound token lifetime), the
 * kube-root-ca.crt ConfigMap's ca.crt and the pod's namespace, mounted read-only at
 * /var/run/secrets/kubernetes.io/serviceaccount. Admission only references the token by path: the
 * node agent requests it (TokenRequest) when it mounts the volume.
 */
import { randomInt } from 'node:crypto';
import type { Volume } from '../pod-shared/pod-types.js';

/** The prefix of the token volume's name. */
export const serviceAccountVolumeName = 'kube-api-access';
/** Where the token volume is mounted in each container. */
export const defaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
/** kube's WarnOnlyBoundTokenExpirationSeconds: one hour and 7 seconds. */
export const warnOnlyBoundTokenExpirationSeconds = 3607;

// kube's names.SimpleNameGenerator alphabet: no vowels, no digits easily confused.
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** kube's SimpleNameGenerator: base plus 5 random characters. */
export function generateName(base: string): string {
  let out = base;
  for (let i = 0; i < 5; i++) out += alphanums[randomInt(alphanums.length)];
  return out;
}

/** The projected token volume, in the form kube stores it (defaultMode 420 filled in). */
export function tokenVolume(name: string): Volume {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: warnOnlyBoundTokenExpirationSeconds, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}
