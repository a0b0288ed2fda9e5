/**
 * The user a service account token names (kube's ServiceAccountInfo.UserInfo):
 * system:serviceaccount:<namespace>:<name> with the service account's uid, the groups
 * system:serviceaccounts and system:serviceaccounts:<namespace>, and the pod, node and credential
 * id of the token in kube's extra keys.
 */
import type { UserInfo } from '../../request/context.js';
import { serviceAccountUsername } from '../../serviceaccount/claims.js';

/** What a validated token says about its bearer. */
export interface ServiceAccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly podName?: string;
  readonly podUID?: string;
  readonly nodeName?: string;
  readonly nodeUID?: string;
  /** "JTI=<jti>" for bound tokens with a jti. */
  readonly credentialID?: string;
  /** Audit annotations the validation made (stale-token, legacy-token-*). */
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  /** Warnings for the client. */
  readonly warnings?: readonly string[];
}

/** The group every service account is in. */
export const allServiceAccountsGroup = 'system:serviceaccounts';

/** kube's user.Info extra keys for service account tokens. */
export const serviceAccountExtraKeys = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUID: 'authentication.kubernetes.io/pod-uid',
  nodeName: 'authentication.kubernetes.io/node-name',
  nodeUID: 'authentication.kubernetes.io/node-uid',
  credentialID: 'authentication.kubernetes.io/credential-id',
} as const;

/** The user of a validated token. Returns a new object. */
export function serviceAccountUser(info: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (info.podName && info.podUID) {
    extra[serviceAccountExtraKeys.podName] = [info.podName];
    extra[serviceAccountExtraKeys.podUID] = [info.podUID];
  }
  if (info.credentialID) extra[serviceAccountExtraKeys.credentialID] = [info.credentialID];
  if (info.nodeName) {
    extra[serviceAccountExtraKeys.nodeName] = [info.nodeName];
    // The node's uid is only there with its name.
    if (info.nodeUID) extra[serviceAccountExtraKeys.nodeUID] = [info.nodeUID];
  }
  return {
    name: serviceAccountUsername(info.namespace, info.name),
    uid: info.uid,
    groups: [allServiceAccountsGroup, `${allServiceAccountsGroup}:${info.namespace}`],
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
