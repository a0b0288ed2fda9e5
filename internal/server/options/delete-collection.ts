/**
 * --delete-collection-workers (kube's EtcdOptions.DeleteCollectionWorkers): how many objects a
 * deletecollection request (and the namespace controller's cleanup, which uses it) deletes at once.
 * As in kube, a value below 1 runs one worker.
 */
import { intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated deletecollection options. */
export interface DeleteCollectionOptions {
  readonly workers: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly deleteCollection?: DeleteCollectionOptions;
  }
}

/** kube's default: one worker. */
export const defaultDeleteCollectionOptions: DeleteCollectionOptions = { workers: 1 };

/** The --delete-collection-workers flag group. */
export const deleteCollectionFlags: FlagGroup<'deleteCollection'> = {
  register(y) {
    y.option('delete-collection-workers', {
      type: 'string',
      default: '1',
      describe: 'Number of workers spawned for DeleteCollection call. These are used to speed up namespace cleanup.',
    });
  },
  validate(p) {
    return { deleteCollection: { workers: intFlag('delete-collection-workers', p['delete-collection-workers'] ?? '1') } };
  },
};
