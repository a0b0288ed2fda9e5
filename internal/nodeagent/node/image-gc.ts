/**
 * Image garbage collection as kubelet's image manager does it: when the image filesystem's usage
 * (CRI ImageFsInfo, its mountpoint's size from statfs) reaches --image-gc-high-threshold percent,
 * unused images (no container uses them, not pinned, not the sandbox image) are removed through
 * CRI RemoveImage, least recently used first, until usage is below --image-gc-low-threshold.
 * An image counts as used since the last pass that saw a container using it.
 */
import type { Logger } from '../../observability/logging.js';
import type { EventRecorder, NodeAgentConfig } from '../interface.js';
import type { CriClient } from '../runtime/cri-client.js';
import { filesystemInfo } from './machine-info.js';

/** What the collector needs. */
export interface ImageGCDeps {
  readonly cri: CriClient;
  readonly config: Pick<NodeAgentConfig, 'imageGCHighThresholdPercent' | 'imageGCLowThresholdPercent'>;
  readonly log: Logger;
  readonly events?: EventRecorder;
  readonly nodeName: string;
  readonly now?: () => number;
  /** The image filesystem's capacity and available bytes (statfs of CRI's mountpoint by default). */
  readonly imageFs?: () => Promise<{ capacityBytes: number; availableBytes: number }>;
}

interface ImageRecord {
  firstDetectedMs: number;
  lastUsedMs: number;
}

/** The image garbage collector of one node. */
export class ImageGC {
  private readonly records = new Map<string, ImageRecord>();
  private readonly now: () => number;

  constructor(private readonly deps: ImageGCDeps) {
    this.now = deps.now ?? Date.now;
  }

  private async imageFs(): Promise<{ capacityBytes: number; availableBytes: number }> {
    if (this.deps.imageFs) return this.deps.imageFs();
    const res = await this.deps.cri.image.ImageFsInfo({});
    const mount = res.image_filesystems?.[0]?.fs_id?.mountpoint;
    if (!mount) throw new Error('the runtime reported no image filesystem');
    return filesystemInfo(mount);
  }

  /** The sandbox (pause) image of the runtime's config (CRI Status verbose info), if it says. */
  private async sandboxImage(): Promise<string | undefined> {
    const res = await this.deps.cri.runtime.Status({ verbose: true }).catch(() => undefined);
    try {
      const config = JSON.parse(res?.info?.config ?? '{}') as { sandboxImage?: string };
      return config.sandboxImage;
    } catch {
      return undefined;
    }
  }

  /** One pass (kubelet's GarbageCollect): frees space when usage reached the high threshold. */
  async garbageCollect(): Promise<void> {
    const fs = await this.imageFs();
    if (fs.capacityBytes <= 0) return;
    const usagePercent = 100 - Math.floor((fs.availableBytes * 100) / fs.capacityBytes);
    if (usagePercent < this.deps.config.imageGCHighThresholdPercent) {
      await this.detectImages();
      return;
    }
    const amountToFree = Math.floor((fs.capacityBytes * (100 - this.deps.config.imageGCLowThresholdPercent)) / 100) - fs.availableBytes;
    this.deps.log.info('Disk usage on image filesystem is over the high threshold, trying to free bytes down to the low threshold', { usage: usagePercent, highThreshold: this.deps.config.imageGCHighThresholdPercent, amountToFree, lowThreshold: this.deps.config.imageGCLowThresholdPercent });
    const freed = await this.freeSpace(amountToFree);
    if (freed < amountToFree) {
      const message = `Failed to garbage collect required amount of images. Attempted to free ${amountToFree} bytes, but only found ${freed} bytes eligible to free.`;
      this.deps.events?.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: this.deps.nodeName, uid: this.deps.nodeName } }, 'Warning', 'FreeDiskSpaceFailed', message);
      throw new Error(message);
    }
  }

  /** Records the images present and which are in use now; returns the ids in use. */
  private async detectImages(): Promise<{ inUse: Set<string>; images: { id: string; size: number; pinned: boolean; names: string[] }[] }> {
    const now = this.now();
    const [{ images = [] }, { containers = [] }, sandbox] = await Promise.all([this.deps.cri.image.ListImages({}), this.deps.cri.runtime.ListContainers({}), this.sandboxImage()]);
    const inUse = new Set<string>();
    for (const c of containers) {
      if (c.image_ref) inUse.add(c.image_ref);
      if (c.image?.image) inUse.add(c.image.image);
    }
    const list = images.map((i) => ({ id: i.id ?? '', size: Number(i.size ?? 0), pinned: i.pinned === true, names: [...(i.repo_tags ?? []), ...(i.repo_digests ?? [])] }));
    for (const img of list) {
      const used = inUse.has(img.id) || img.names.some((n) => inUse.has(n)) || (sandbox !== undefined && img.names.includes(sandbox));
      if (used) inUse.add(img.id);
      const rec = this.records.get(img.id) ?? { firstDetectedMs: now, lastUsedMs: 0 };
      if (used) rec.lastUsedMs = now;
      this.records.set(img.id, rec);
    }
    for (const id of [...this.records.keys()]) if (!list.some((i) => i.id === id)) this.records.delete(id);
    return { inUse, images: list };
  }

  /** Removes unused images, least recently used first, until bytesToFree bytes were freed; returns the bytes freed. */
  async freeSpace(bytesToFree: number): Promise<number> {
    const { inUse, images } = await this.detectImages();
    const candidates = images
      .filter((i) => !inUse.has(i.id) && !i.pinned)
      .map((i) => ({ ...i, rec: this.records.get(i.id)! }))
      .sort((a, b) => a.rec.lastUsedMs - b.rec.lastUsedMs || a.rec.firstDetectedMs - b.rec.firstDetectedMs);
    let freed = 0;
    for (const img of candidates) {
      if (freed >= bytesToFree) break;
      this.deps.log.info('Removing image to free bytes', { imageID: img.id, size: img.size });
      try {
        await this.deps.cri.image.RemoveImage({ image: { image: img.id } });
      } catch (err) {
        this.deps.log.error('Failed to remove image', { imageID: img.id, err: (err as Error).message });
        continue;
      }
      this.records.delete(img.id);
      freed += img.size;
    }
    return freed;
  }
}
