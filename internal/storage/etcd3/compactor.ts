/**
 * The compactor: every --etcd-compaction-interval it compacts etcd up to the revision it saw one
 * interval earlier, as kube-apiserver does. Several API servers coordinate through the version of
 * the `compact_rev_key` key, so only one of them compacts each round.
 */
import type { Etcd3 } from 'etcd3';
import { isCompacted } from './errors.js';

/** The key kube-apiserver coordinates compaction through (outside --etcd-prefix, as kube keeps it). */
export const compactRevKey = 'compact_rev_key';

/** A running compactor. */
export interface Compactor {
  /** Stops the loop; an in-flight round finishes on its own. */
  stop(): void;
  /** Runs one round now (tests); resolves with the revision compacted, or 0n when none. */
  runOnce(): Promise<bigint>;
}

/** Logs a failed round; the loop continues. */
export type CompactorLogger = (message: string) => void;

/**
 * Starts the loop. intervalMs 0 disables compaction (kube: --etcd-compaction-interval=0).
 * Each round does: txn(if version(compact_rev_key) == lastVersion then put(compact_rev_key, rev)
 * else get(compact_rev_key)); when it wins and a revision was recorded last round, compact to it.
 */
export function startCompactor(client: Etcd3, intervalMs: number, log: CompactorLogger): Compactor {
  let lastVersion = 0n;
  let lastRev = 0n;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const round = async (): Promise<bigint> => {
    const key = Buffer.from(compactRevKey);
    const res = await client.kv.txn({
      compare: [{ key, target: 'Version', result: 'Equal', version: lastVersion.toString() }],
      success: [{ request_put: { key, value: Buffer.from(lastRev.toString()) } }],
      failure: [{ request_range: { key } }],
    });
    const currentRev = BigInt(res.header.revision);
    if (!res.succeeded) {
      // Another server compacted (or we restarted): adopt its version and start over from now.
      const kv = res.responses[0]?.response_range?.kvs[0];
      lastVersion = kv ? BigInt(kv.version) : 0n;
      lastRev = currentRev;
      return 0n;
    }
    lastVersion += 1n;
    const target = lastRev;
    lastRev = currentRev;
    if (target === 0n) return 0n;
    await client.kv.compact({ revision: target.toString(), physical: false });
    return target;
  };

  const schedule = (): void => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => {
      round()
        .catch((err: unknown) => {
          // Compacting to a revision that someone already compacted past is not a failure.
          if (!isCompacted(err)) log(`etcd compaction failed: ${err instanceof Error ? err.message : String(err)}`);
        })
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    runOnce: round,
  };
}
