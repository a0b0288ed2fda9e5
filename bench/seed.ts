/**
 * Filling the store before a measurement: n creates through the API with a fixed number in
 * flight. Every failure is counted and the first few are kept, so a broken setup is loud.
 */
import type { Client } from './client.js';

/** What a seeding run did. */
export interface SeedResult {
  readonly created: number;
  readonly failed: number;
  readonly errors: readonly string[];
  readonly ms: number;
}

/** Runs task(i) for i in [0, n) with at most concurrency running; resolves when all settle. */
export async function runPool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

/** POSTs make(i) to path for i in [0, n), concurrency at a time. */
export async function seed(client: Client, path: string, n: number, make: (i: number) => unknown, concurrency = 64): Promise<SeedResult> {
  const started = performance.now();
  let created = 0;
  let failed = 0;
  const errors: string[] = [];
  await runPool(n, concurrency, async (i) => {
    try {
      const r = await client.call('POST', path, make(i));
      if (r.status === 201 || r.status === 200) {
        created++;
        return;
      }
      failed++;
      if (errors.length < 5) errors.push(`HTTP ${r.status}: ${r.body.toString('utf8').slice(0, 200)}`);
    } catch (err) {
      failed++;
      if (errors.length < 5) errors.push((err as Error).message);
    }
  });
  return { created, failed, errors, ms: performance.now() - started };
}
