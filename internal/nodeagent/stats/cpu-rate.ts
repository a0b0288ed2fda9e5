/**
 * usageNanoCores from cumulative CPU time: the rate between the previous sample of the same key
 * and this one, as kubelet's CRI stats provider derives it when the runtime does not (containerd
 * 1.6 reports only usage_core_nano_seconds for some paths). A first sample has no rate.
 */

interface Sample {
  readonly atNs: bigint;
  readonly usageNs: bigint;
}

/** Keeps the last sample per key (node, pod, container id). */
export class CpuRateCache {
  private readonly samples = new Map<string, Sample>();

  /** The rate in nanocores since key's previous sample (undefined for a first sample or a counter reset). */
  rate(key: string, usageCoreNanoSeconds: bigint, atNs: bigint = process.hrtime.bigint()): number | undefined {
    const prev = this.samples.get(key);
    this.samples.set(key, { atNs, usageNs: usageCoreNanoSeconds });
    if (!prev || atNs <= prev.atNs || usageCoreNanoSeconds < prev.usageNs) return undefined;
    return Number(((usageCoreNanoSeconds - prev.usageNs) * 1_000_000_000n) / (atNs - prev.atNs));
  }

  /** Forgets keys not in keep (containers and pods that are gone). */
  retain(keep: ReadonlySet<string>): void {
    for (const k of [...this.samples.keys()]) if (!keep.has(k)) this.samples.delete(k);
  }
}
