/**
 * kube-controller-manager's persistentvolume-protection-controller, run inside the API server: a
 * PersistentVolume being deleted keeps its kubernetes.io/pv-protection finalizer while it is Bound
 * to a claim, and loses it (so the volume goes) once it is not.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { objectKey } from '../informer.js';
import { ResourceClient } from '../resource-client.js';
import { WorkQueue } from '../work-queue.js';
import { awaitsRelease, dropFinalizer } from './pvc-protection.js';

/** The finalizer this controller removes. */
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

/** The controller, for the in-server list. */
export const pvProtectionController: InServerController = {
  name: 'persistentvolume-protection-controller',
  controllerManagerAlias: 'pv-protection',
  start(deps) {
    const volumes = deps.informers.get('', 'persistentvolumes');
    const client = new ResourceClient(deps.storageOf('', 'persistentvolumes') as NonNullable<ReturnType<typeof deps.storageOf>>, '', 'persistentvolumes');
    const queue = new WorkQueue(
      async (key) => {
        const pv = volumes.get(key);
        if (!pv || !awaitsRelease(pv, pvProtectionFinalizer)) return;
        if ((pv.status as { phase?: string } | undefined)?.phase === 'Bound') return;
        await dropFinalizer(client, pv, pvProtectionFinalizer);
      },
      { onDrop: (key, err) => deps.log.warn(`persistentvolume-protection-controller: releasing ${key} failed: ${(err as Error).message}`) },
    );
    const onVolume = (pv: KubeObject): void => {
      if (awaitsRelease(pv, pvProtectionFinalizer)) queue.add(objectKey(pv));
    };
    volumes.addHandlers({ added: onVolume, updated: onVolume });
    return () => queue.stop();
  },
};
