/**
 * What the apiextensions controllers share: the CRD informer, and status writes through
 * customresourcedefinitions/status computed from the object as stored (so several API servers on
 * one etcd converge instead of fighting: a write that changes nothing is skipped, and a write that
 * loses a race is recomputed from the winner's state).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import { ResourceClient } from '../../controllers/resource-client.js';
import type { RestStorage } from '../../registry/interface.js';

/** The CRD resource. */
export const crdGroup = 'apiextensions.k8s.io';
export const crdResource = 'customresourcedefinitions';

/**
 * Changes a CRD's status: change gets a copy of the stored CRD (stored form) and returns it
 * changed, or undefined to write nothing. Called again on a lost race. Returns the stored CRD
 * (after the write, if any) and whether it was written; undefined when the CRD is gone.
 */
export type CrdStatusUpdate = (
  name: string,
  change: (crd: KubeObject) => KubeObject | undefined,
) => Promise<{ readonly object: KubeObject; readonly wrote: boolean } | undefined>;

/** A CrdStatusUpdate over the customresourcedefinitions/status storage. */
export function crdStatusUpdater(statusStorage: RestStorage): CrdStatusUpdate {
  const client = new ResourceClient(statusStorage, crdGroup, crdResource);
  return async (name, change) => {
    let wrote = false;
    try {
      const out = await client.update(name, '', (current) => {
        const next = change(current);
        wrote = next !== undefined;
        return next ?? current;
      });
      return { object: out, wrote };
    } catch (err) {
      // Deleted in the meantime: whatever follows is another event.
      if (hasReason(err, 'NotFound')) return undefined;
      throw err;
    }
  };
}
