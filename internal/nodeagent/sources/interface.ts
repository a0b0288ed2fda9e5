/**
 * The pod sources' seam: each source (API server, manifest directory, manifest URL) reports the
 * complete set of pods it currently holds (kubelet's SET updates); the pod manager merges them.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { PodSourceName } from '../interface.js';

/** Receives a source's complete current pod set; must not block (called from the source's loop). */
export type PodSetListener = (source: PodSourceName, pods: readonly KubeObject[]) => void;

/** A running source. */
export interface PodSource {
  readonly name: PodSourceName;
  /** True once the source delivered its first set (kubelet's "sources ready"). */
  readonly synced: boolean;
  stop(): void;
}
