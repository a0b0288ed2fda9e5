/**
 * NodePort allocation kept in etcd as kube keeps it: one RangeAllocation object at
 * /ranges/servicenodeports whose range is the --service-node-port-range and whose data is the
 * bitmap of allocated ports (Go's big.Int bytes: bit i is port base+i). Every change is a
 * compare-and-swap on that key (guaranteedUpdate), so two API servers never hand out one port.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { isStorageError, StorageError } from '../../../storage/errors.js';
import type { Storage } from '../../../storage/interface.js';
import { portRangeContains, portRangeString, type PortRange } from './port-range.js';

/** Why a port could not be allocated; message is kube's error text. */
export class PortAllocationError extends Error {
  constructor(
    readonly reason: 'allocated' | 'not-in-range' | 'full' | 'mismatched-range',
    message: string,
  ) {
    super(message);
  }
}

/** The etcd key (under --etcd-prefix) of the node port bitmap. */
export const nodePortRangeKey = '/ranges/servicenodeports';

/** A bitmap of size ports, one byte a port. */
export type PortBitmap = Uint8Array;

/** Decodes RangeAllocation.data (base64 of big-endian big.Int bytes) into a bitmap of size ports. */
export function decodeBitmap(data: string | undefined, size: number): PortBitmap {
  const bits = new Uint8Array(size);
  const bytes = Buffer.from(data ?? '', 'base64');
  for (let b = 0; b < bytes.length; b++) {
    const byte = bytes[bytes.length - 1 - b] as number;
    if (byte === 0) continue;
    for (let k = 0; k < 8; k++) if (byte & (1 << k) && b * 8 + k < size) bits[b * 8 + k] = 1;
  }
  return bits;
}

/** Encodes a bitmap as RangeAllocation.data (no leading zero bytes, as big.Int.Bytes). */
export function encodeBitmap(bits: PortBitmap): string {
  let top = bits.length - 1;
  while (top >= 0 && bits[top] === 0) top--;
  if (top < 0) return '';
  const len = Math.floor(top / 8) + 1;
  const bytes = Buffer.alloc(len);
  for (let i = 0; i <= top; i++) if (bits[i]) bytes[len - 1 - Math.floor(i / 8)] = (bytes[len - 1 - Math.floor(i / 8)] as number) | (1 << (i % 8));
  return bytes.toString('base64');
}

/** kube's calculateRangeOffset for ports (KEP-3668): min(max(16, size/32), 128), none for 16 or fewer. */
export function portRangeOffset(size: number): number {
  if (size <= 16) return 0;
  const offset = Math.floor(size / 32);
  return offset < 16 ? 16 : offset > 128 ? 128 : offset;
}

/** The RangeAllocation object for range and bitmap. */
export function rangeAllocation(range: PortRange, bits: PortBitmap): KubeObject {
  return { kind: 'RangeAllocation', apiVersion: 'v1', metadata: {}, range: portRangeString(range), data: encodeBitmap(bits) } as KubeObject;
}

/** Allocates node ports; every change is one compare-and-swap of the shared bitmap. */
export class NodePortAllocator {
  /** Changes from this server run one at a time (kube's allocator lock); etcd's CAS orders servers. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The object as this server last wrote or read it: the first guess of the next change. */
  private last: KubeObject | undefined;

  constructor(
    private readonly storage: Storage,
    readonly range: PortRange,
    private readonly key = nodePortRangeKey,
  ) {}

  /** Applies change to the stored bitmap (created when missing) and returns what it returned. */
  private change<T>(fn: (bits: PortBitmap) => T): Promise<T> {
    const run = this.queue.then(() => this.changeNow(fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async changeNow<T>(fn: (bits: PortBitmap) => T): Promise<T> {
    let result: T | undefined;
    this.last = await this.storage.guaranteedUpdate(this.key, {
      ignoreNotFound: true,
      ...(this.last ? { cachedExisting: this.last } : {}),
      tryUpdate: (current) => {
        const stored = (current as { range?: string }).range;
        if (stored && stored !== portRangeString(this.range)) {
          throw new PortAllocationError('mismatched-range', 'the provided port range does not match the current port range');
        }
        const bits = decodeBitmap((current as { data?: string }).data, this.range.size);
        result = fn(bits);
        return { ...rangeAllocation(this.range, bits), metadata: current.metadata ?? {} };
      },
    });
    return result as T;
  }

  /** The stored bitmap (empty when nothing was ever allocated). */
  async snapshot(): Promise<{ range: string | undefined; data: string | undefined; resourceVersion: string | undefined }> {
    try {
      const obj = (await this.storage.get(this.key, { resourceVersion: '' })) as KubeObject & { range?: string; data?: string };
      return { range: obj.range, data: obj.data, resourceVersion: obj.metadata.resourceVersion };
    } catch (err) {
      if (isStorageError(err, 'NotFound')) return { range: undefined, data: undefined, resourceVersion: undefined };
      throw err;
    }
  }

  /** True when port is allocated. */
  async has(port: number): Promise<boolean> {
    if (!portRangeContains(this.range, port)) return false;
    const snap = await this.snapshot();
    if (snap.range && snap.range !== portRangeString(this.range)) return false;
    return decodeBitmap(snap.data, this.range.size)[port - this.range.base] === 1;
  }

  /** Allocates port; throws PortAllocationError when it is outside the range or taken. */
  async allocate(port: number): Promise<void> {
    if (!portRangeContains(this.range, port)) {
      throw new PortAllocationError('not-in-range', `provided port is not in the valid range. The range of valid ports is ${portRangeString(this.range)}`);
    }
    const ok = await this.change((bits) => {
      if (bits[port - this.range.base]) return false;
      bits[port - this.range.base] = 1;
      return true;
    });
    if (!ok) throw new PortAllocationError('allocated', 'provided port is already allocated');
  }

  /** Allocates a free port: the upper band first from a random start, then the lower band. */
  async allocateNext(): Promise<number> {
    const size = this.range.size;
    const offset = portRangeOffset(size);
    const at = await this.change((bits) => {
      const upper = size - offset;
      const start = Math.floor(Math.random() * upper);
      for (let i = 0; i < upper; i++) {
        const k = offset + ((start + i) % upper);
        if (!bits[k]) return (bits[k] = 1), k;
      }
      const low = offset > 0 ? Math.floor(Math.random() * offset) : 0;
      for (let i = 0; i < offset; i++) {
        const k = (low + i) % offset;
        if (!bits[k]) return (bits[k] = 1), k;
      }
      return -1;
    });
    if (at < 0) throw new PortAllocationError('full', 'range is full');
    return this.range.base + at;
  }

  /** Frees ports (outside the range or free already is fine), in one write. */
  async release(ports: readonly number[]): Promise<void> {
    const mine = ports.filter((p) => portRangeContains(this.range, p));
    if (mine.length === 0) return;
    await this.change((bits) => {
      for (const p of mine) bits[p - this.range.base] = 0;
    });
  }

  /**
   * Writes the repair loop's rebuilt bitmap, unless the stored one changed since the snapshot at
   * resourceVersion (undefined: it did not exist) was read: then throws StorageError Conflict.
   */
  async replace(resourceVersion: string | undefined, bits: PortBitmap): Promise<void> {
    await this.storage.guaranteedUpdate(this.key, {
      ignoreNotFound: true,
      tryUpdate: (current) => {
        if (current.metadata?.resourceVersion !== resourceVersion) throw new StorageError('Conflict', this.key, `${this.key} changed since it was read`);
        return { ...rangeAllocation(this.range, bits), metadata: current.metadata ?? {} };
      },
    });
    this.last = undefined;
  }
}
