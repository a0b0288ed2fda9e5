/**
 * NodeRestriction's token audience rule (kube 1.33's ServiceAccountNodeAudienceRestriction, beta
 * and on by default): a node may ask for a token with at most one audience, and only for an
 * audience a pod on it already uses (a projected serviceAccountToken volume's audience, or one the
 * CSIDriver of one of its CSI volumes, directly, through a claim, or through an ephemeral claim,
 * asks tokens for), unless the authorizer allows the node the verb
 * "request-serviceaccounts-token-audience" on a resource named as the audience.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Authorizer } from '../../../authz/interface.js';
import type { AdmissionAttributes } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import type { Pod } from '../pod-shared/pod-types.js';

/** What the rule reads: a namespace's claim, a volume, a CSIDriver (undefined when absent). */
export interface AudienceLookups {
  claim(namespace: string, name: string): Promise<KubeObject | undefined>;
  volume(name: string): Promise<KubeObject | undefined>;
  csiDriver(name: string): Promise<KubeObject | undefined>;
}

interface VolumeSource {
  name?: string;
  projected?: { sources?: { serviceAccountToken?: { audience?: string } }[] };
  csi?: { driver?: string };
  persistentVolumeClaim?: { claimName?: string };
  ephemeral?: { volumeClaimTemplate?: unknown };
}

async function driverOfClaim(lookups: AudienceLookups, namespace: string, claimName: string): Promise<string | undefined> {
  const claim = await lookups.claim(namespace, claimName);
  const volumeName = (claim?.spec as { volumeName?: string } | undefined)?.volumeName;
  if (!volumeName) return undefined;
  const pv = await lookups.volume(volumeName);
  return (pv?.spec as { csi?: { driver?: string } } | undefined)?.csi?.driver;
}

/** Whether a volume of the pod uses the audience. */
export async function podReferencesAudience(pod: Pod, audience: string, lookups: AudienceLookups): Promise<boolean> {
  const namespace = pod.metadata.namespace ?? '';
  for (const v of (pod.spec?.volumes ?? []) as VolumeSource[]) {
    for (const src of v.projected?.sources ?? []) {
      if (src.serviceAccountToken && (src.serviceAccountToken.audience ?? '') === audience) return true;
    }
    let driver: string | undefined;
    if (v.ephemeral?.volumeClaimTemplate) driver = await driverOfClaim(lookups, namespace, `${pod.metadata.name ?? ''}-${v.name ?? ''}`);
    else if (v.persistentVolumeClaim?.claimName) driver = await driverOfClaim(lookups, namespace, v.persistentVolumeClaim.claimName);
    else driver = v.csi?.driver;
    if (!driver) continue;
    const csiDriver = await lookups.csiDriver(driver);
    const requests = (csiDriver?.spec as { tokenRequests?: { audience?: string }[] } | undefined)?.tokenRequests ?? [];
    if (requests.some((r) => (r.audience ?? '') === audience)) return true;
  }
  return false;
}

/** Refuses the token request unless the node may have a token for its audience. */
export async function checkTokenAudience(attrs: AdmissionAttributes, pod: Pod, lookups: AudienceLookups, authorizer: () => Authorizer | undefined): Promise<void> {
  const audiences = (attrs.object?.spec as { audiences?: string[] } | undefined)?.audiences ?? [];
  if (audiences.length > 1) throw admissionForbidden(attrs, 'node may only request 0 or 1 audiences');
  const audience = audiences[0] ?? '';
  if (await podReferencesAudience(pod, audience, lookups)) return;
  const authz = authorizer();
  if (authz) {
    const decision = await authz.authorize({
      user: attrs.userInfo,
      verb: 'request-serviceaccounts-token-audience',
      isResourceRequest: true,
      path: '',
      namespace: attrs.namespace,
      apiGroup: '',
      apiVersion: 'v1',
      resource: audience,
      subresource: '',
      name: attrs.name,
    });
    if (decision.decision === 'Allow') return;
  }
  throw admissionForbidden(attrs, `audience "${audience}" not found in pod spec volume, ${attrs.userInfo.name} is not authorized to request tokens for this audience`);
}
