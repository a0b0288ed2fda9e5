/**
 * kube-controller-manager's persistentvolumeclaim-protection-controller, run inside the API server:
 * a PersistentVolumeClaim being deleted keeps its kubernetes.io/pvc-protection finalizer (set by the
 * StorageObjectInUseProtection plugin) while a pod that is not terminal uses it — by
 * persistentVolumeClaim.claimName or as the generic ephemeral volume "<pod>-<volume>" — and loses it
 * (so the claim goes) once none does.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { objectKey } from '../informer.js';
import { ResourceClient } from '../resource-client.js';
import { WorkQueue } from '../work-queue.js';

/** The finalizer this controller removes. */
export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';

interface PodVolume {
  name?: string;
  persistentVolumeClaim?: { claimName?: string };
  ephemeral?: unknown;
}

/** The claims a pod uses, by name. */
export function claimsOf(pod: KubeObject): string[] {
  const volumes = ((pod.spec as { volumes?: PodVolume[] } | undefined)?.volumes ?? []) as PodVolume[];
  const out: string[] = [];
  for (const v of volumes) {
    if (v.persistentVolumeClaim?.claimName) out.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral && v.name) out.push(`${pod.metadata.name ?? ''}-${v.name}`);
  }
  return out;
}

function terminal(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Whether the claim is being deleted and still carries the finalizer. */
export function awaitsRelease(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(finalizer);
}

/** Removes finalizer from the stored object (no-op when it is already gone). */
export async function dropFinalizer(client: ResourceClient, obj: KubeObject, finalizer: string): Promise<void> {
  try {
    await client.update(obj.metadata.name ?? '', obj.metadata.namespace ?? '', (current) => {
      current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return current;
    });
  } catch (err) {
    if (!hasReason(err, 'NotFound')) throw err;
  }
}

/** The controller, for the in-server list. */
export const pvcProtectionController: InServerController = {
  name: 'persistentvolumeclaim-protection-controller',
  controllerManagerAlias: 'pvc-protection',
  start(deps) {
    const claims = deps.informers.get('', 'persistentvolumeclaims');
    const pods = deps.informers.get('', 'pods');
    const client = new ResourceClient(deps.storageOf('', 'persistentvolumeclaims') as NonNullable<ReturnType<typeof deps.storageOf>>, '', 'persistentvolumeclaims');
    const queue = new WorkQueue(
      async (key) => {
        await Promise.all([claims.synced, pods.synced]);
        const claim = claims.get(key);
        if (!claim || !awaitsRelease(claim, pvcProtectionFinalizer)) return;
        const ns = claim.metadata.namespace ?? '';
        for (const pod of pods.list()) {
          if (pod.metadata.namespace === ns && !terminal(pod) && claimsOf(pod).includes(claim.metadata.name ?? '')) return;
        }
        await dropFinalizer(client, claim, pvcProtectionFinalizer);
      },
      { onDrop: (key, err) => deps.log.warn(`persistentvolumeclaim-protection-controller: releasing ${key} failed: ${(err as Error).message}`) },
    );
    const onClaim = (c: KubeObject): void => {
      if (awaitsRelease(c, pvcProtectionFinalizer)) queue.add(objectKey(c));
    };
    claims.addHandlers({ added: onClaim, updated: onClaim });
    // A pod that goes or finishes may release the claims it used.
    const onPod = (p: KubeObject): void => {
      for (const name of claimsOf(p)) queue.add(`${p.metadata.namespace ?? ''}/${name}`);
    };
    pods.addHandlers({ deleted: onPod, updated: (p) => (terminal(p) ? onPod(p) : undefined) });
    return () => queue.stop();
  },
};
