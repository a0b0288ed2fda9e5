/**
 * The `log` health check (kube's LogHealthz): the first check starts a loop that flushes the log
 * once a minute; the check fails with "logging blocked" when no flush has completed for two
 * minutes (a log write stuck on a full pipe or disk holds the flush up). One loop per process,
 * as kube's check is one global.
 */
import type { HealthCheck } from '../health.js';

const flushIntervalMs = 60_000;
const blockedAfterMs = 2 * 60_000;

/** Something whose pending writes can be flushed: calls done once everything written before is out. */
export type LogFlusher = (done: () => void) => void;

/** Flushes stderr, where the logger writes. */
const flushStderr: LogFlusher = (done) => {
  process.stderr.write('', () => done());
};

/** A log check over flush (tests pass their own flusher and clock). */
export function newLogCheck(flush: LogFlusher = flushStderr, now: () => number = Date.now): HealthCheck {
  let lastVerified: number | undefined;
  const verify = (): void => flush(() => (lastVerified = now()));
  return {
    name: 'log',
    check: () => {
      if (lastVerified === undefined) {
        lastVerified = now();
        verify();
        setInterval(verify, flushIntervalMs).unref();
      }
      if (now() - lastVerified >= blockedAfterMs) throw new Error('logging blocked');
    },
  };
}

/** The process's log check. */
export const logCheck: HealthCheck = newLogCheck();
