/**
 * StoreHooks: side effects a resource needs around its writes (kube's BeginCreate, BeginUpdate
 * and AfterDelete), such as allocating and releasing a Service's cluster IP. Unlike a Strategy a
 * hook may read and write storage.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { RequestContext } from '../../request/context.js';

/** Called with whether the write the hook prepared for was stored; undoes the hook's work when not. */
export type FinishFunc = (stored: boolean) => Promise<void>;

/** Optional hooks of a GenericStore. */
export interface StoreHooks {
  /**
   * Runs after defaulting, validation and admission, right before a create is written; may mutate
   * obj (e.g. fill in allocated values). Throw a StatusError to refuse.
   */
  beginCreate?(ctx: RequestContext, obj: KubeObject, dryRun: boolean): Promise<FinishFunc>;
  /** Like beginCreate for an update of old to obj; may run again when the write loses a race. */
  beginUpdate?(ctx: RequestContext, obj: KubeObject, old: KubeObject, dryRun: boolean): Promise<FinishFunc>;
  /** Runs after obj was removed from storage. */
  afterDelete?(ctx: RequestContext, obj: KubeObject): Promise<void>;
}

/** A FinishFunc that does nothing. */
export const noFinish: FinishFunc = async () => undefined;
