/**
 * kubelet's status manager, reduced to what one pod worker needs: the computed status is written
 * to pods/<name>/status (the mirror pod's for static pods) only when it differs from the last one
 * written, as a merge patch carrying metadata.uid so a same-named newer pod is never touched; and
 * the final DELETE (gracePeriodSeconds 0, uid precondition) once a deleted pod stopped.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { ApiClient } from '../client/api-client.js';
import { isApiCode } from '../client/api-client.js';

/** Writes one pod's status. */
export class StatusWriter {
  private lastWritten: string | undefined;

  constructor(private readonly client: ApiClient) {}

  /** Writes status to target (namespace/name/uid) when it changed; resolves with the server's pod. */
  async write(target: KubeObject, status: Record<string, unknown>): Promise<KubeObject | undefined> {
    const text = JSON.stringify(status);
    if (text === this.lastWritten) return undefined;
    const { namespace, name, uid } = target.metadata;
    try {
      const updated = await this.client.patch(`/api/v1/namespaces/${namespace}/pods/${name}/status`, 'merge', { metadata: { uid }, status });
      this.lastWritten = text;
      return updated;
    } catch (err) {
      // Gone (or replaced by a pod of another uid): nothing to write to.
      if (isApiCode(err, 404) || isApiCode(err, 409) || isApiCode(err, 422)) return undefined;
      throw err;
    }
  }

  /** Forgets what was written (the next write goes out even if equal). */
  reset(): void {
    this.lastWritten = undefined;
  }

  /** The final deletion of a stopped, deleted pod (kubelet's status manager does it). */
  async finalDelete(target: KubeObject): Promise<void> {
    const { namespace, name, uid } = target.metadata;
    try {
      await this.client.delete(`/api/v1/namespaces/${namespace}/pods/${name}`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } });
    } catch (err) {
      if (isApiCode(err, 404) || isApiCode(err, 409)) return;
      throw err;
    }
  }
}
