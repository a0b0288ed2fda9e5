/**
 * What one conversion strategy implements (kube's CRConverter): converting objects that are all
 * in versions other than the target. The delegating converter around it checks versions, skips
 * objects already converted, and validates what comes back.
 */
import type { KubeObject } from '../../../api/meta/types.js';

/** One strategy (None or Webhook). */
export interface VersionConverter {
  /**
   * The objects converted to toApiVersion, in order, as the strategy gives them (unchecked: the
   * caller validates count, versions, kinds and metadata). listGvk is how kube names the list it
   * hands the strategy in its messages ("/, Kind=" for a single object). Rejects with an Error in
   * kube's words. Never mutates objects.
   */
  convert(objects: readonly KubeObject[], toApiVersion: string, listGvk: string): Promise<unknown[]>;
  /** Releases connections (a webhook client's); the converter is not used afterwards. */
  close?(): void;
}
