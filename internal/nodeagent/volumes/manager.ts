/**
 * The pod volumes the node agent prepares before containers start (kubelet's volume manager for
 * the in-tree plugins it supports): emptyDir, configMap, secret, downwardAPI, projected (with
 * service account tokens) and hostPath, under <root-dir>/pods/<uid>/volumes/kubernetes.io~<plugin>/<name>.
 * Set-up runs on every sync so ConfigMap, Secret and token updates reach running pods; tear-down
 * unmounts memory-backed emptyDirs and removes the pod's directory.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ApiClient } from '../client/api-client.js';
import type { ConfigObjects } from '../pods/config-objects.js';
import type { RuntimeFields } from '../pods/field-ref.js';
import type { Pod, Volume } from '../pods/types.js';
import { writePayload, type PayloadFile } from './atomic-writer.js';
import { checkHostPath } from './host-path.js';
import { defaultFileMode, downwardPayload, fetchForVolume, keysPayload } from './payloads.js';
import { TokenManager } from './service-account-token.js';

const run = promisify(execFile);

/** A volume could not be set up: kubelet's FailedMount message. */
export class VolumeSetupError extends Error {
  constructor(
    readonly volume: string,
    readonly detail: string,
  ) {
    super(`MountVolume.SetUp failed for volume "${volume}" : ${detail}`);
  }
}

/** Sets up and tears down pod volumes. */
export class VolumeManager {
  readonly tokens: TokenManager;

  constructor(
    private readonly rootDir: string,
    private readonly objects: ConfigObjects,
    client: ApiClient,
  ) {
    this.tokens = new TokenManager(client);
  }

  /** <root-dir>/pods/<uid>. */
  podDir(uid: string): string {
    return join(this.rootDir, 'pods', uid);
  }

  /** Sets up every volume of pod; resolves with volume name -> host path. Throws VolumeSetupError. */
  async setUp(pod: Pod, rt: RuntimeFields): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const v of pod.spec.volumes ?? []) {
      try {
        out.set(v.name, await this.setUpOne(pod, v, rt));
      } catch (err) {
        throw new VolumeSetupError(v.name, (err as Error).message);
      }
    }
    return out;
  }

  private dir(pod: Pod, plugin: string, name: string): string {
    return join(this.podDir(pod.metadata.uid ?? ''), 'volumes', `kubernetes.io~${plugin}`, name);
  }

  private async setUpOne(pod: Pod, v: Volume, rt: RuntimeFields): Promise<string> {
    const ns = pod.metadata.namespace ?? '';
    if (v.hostPath) {
      await checkHostPath(v.hostPath.path, v.hostPath.type);
      return v.hostPath.path;
    }
    if (v.emptyDir) {
      const dir = this.dir(pod, 'empty-dir', v.name);
      await mkdir(dir, { recursive: true });
      if (v.emptyDir.medium === 'Memory' && !(await isMountPoint(dir))) {
        const size = v.emptyDir.sizeLimit ? [`-o`, `size=${sizeOption(v.emptyDir.sizeLimit)}`] : [];
        await run('mount', ['-t', 'tmpfs', ...size, 'tmpfs', dir]);
      }
      // emptyDir is world-writable (0777), as kubelet makes it.
      await chmod(dir, 0o777);
      return dir;
    }
    let payload: Map<string, PayloadFile>;
    let plugin: string;
    if (v.configMap) {
      plugin = 'configmap';
      const optional = v.configMap.optional ?? false;
      const data = await fetchForVolume(this.objects, 'configmap', ns, v.configMap.name ?? '', optional);
      payload = keysPayload('configmap', data, v.configMap.items, v.configMap.defaultMode ?? defaultFileMode, optional);
    } else if (v.secret) {
      plugin = 'secret';
      const optional = v.secret.optional ?? false;
      const data = await fetchForVolume(this.objects, 'secret', ns, v.secret.secretName ?? '', optional);
      payload = keysPayload('secret', data, v.secret.items, v.secret.defaultMode ?? defaultFileMode, optional);
    } else if (v.downwardAPI) {
      plugin = 'downward-api';
      payload = downwardPayload(pod, v.downwardAPI.items ?? [], v.downwardAPI.defaultMode ?? defaultFileMode, rt);
    } else if (v.projected) {
      plugin = 'projected';
      payload = await this.projected(pod, v, rt);
    } else {
      const kind = Object.keys(v).find((k) => k !== 'name') ?? 'unknown';
      throw new Error(`volume type ${kind} is not supported by this node agent`);
    }
    const dir = this.dir(pod, plugin, v.name);
    await writePayload(dir, payload);
    return dir;
  }

  private async projected(pod: Pod, v: Volume, rt: RuntimeFields): Promise<Map<string, PayloadFile>> {
    const ns = pod.metadata.namespace ?? '';
    const mode = v.projected?.defaultMode ?? defaultFileMode;
    const out = new Map<string, PayloadFile>();
    for (const src of v.projected?.sources ?? []) {
      let part: Map<string, PayloadFile> = new Map();
      if (src.configMap) {
        const optional = src.configMap.optional ?? false;
        const data = await fetchForVolume(this.objects, 'configmap', ns, src.configMap.name ?? '', optional);
        part = keysPayload('configmap', data, src.configMap.items, mode, optional);
      } else if (src.secret) {
        const optional = src.secret.optional ?? false;
        const data = await fetchForVolume(this.objects, 'secret', ns, src.secret.name ?? '', optional);
        part = keysPayload('secret', data, src.secret.items, mode, optional);
      } else if (src.downwardAPI) {
        part = downwardPayload(pod, src.downwardAPI.items ?? [], mode, rt);
      } else if (src.serviceAccountToken) {
        const t = src.serviceAccountToken;
        const token = await this.tokens.token(pod, t.audience, t.expirationSeconds);
        part.set(t.path, { data: Buffer.from(token, 'utf8'), mode });
      }
      for (const [k, f] of part) out.set(k, f);
    }
    return out;
  }

  /** Unmounts memory-backed emptyDirs and removes <root-dir>/pods/<uid>. */
  async tearDown(uid: string): Promise<void> {
    this.tokens.forget(uid);
    const podDir = this.podDir(uid);
    const mounts = await readFile('/proc/self/mounts', 'utf8').catch(() => '');
    for (const line of mounts.split('\n')) {
      const target = line.split(' ')[1];
      if (target && target.startsWith(podDir + '/')) await run('umount', [target]).catch(() => undefined);
    }
    await rm(podDir, { recursive: true, force: true });
  }
}

async function isMountPoint(dir: string): Promise<boolean> {
  const mounts = await readFile('/proc/self/mounts', 'utf8').catch(() => '');
  return mounts.split('\n').some((l) => l.split(' ')[1] === dir);
}

/** A tmpfs size option from a quantity (bytes; tmpfs takes a plain number). */
function sizeOption(q: string): string {
  const m = /^(\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q.trim());
  if (!m) return q;
  const mult: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return String(Number(m[1]) * (m[2] ? mult[m[2]]! : 1));
}
