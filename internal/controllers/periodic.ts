/**
 * A loop run at once and then every interval, never two passes at a time, for in-server
 * controllers; its first pass is the controller's synced promise (always settles).
 */
import type { InServerControllerStop } from '../server/in-server-controllers.js';

/** Runs fn now and every intervalMs, never two at once, until stopped; returns the stop. */
export function periodic(fn: () => Promise<void>, intervalMs: number, onError: (err: Error) => void, signal: AbortSignal): InServerControllerStop {
  let running = false;
  const run = async (): Promise<void> => {
    if (running || signal.aborted) return;
    running = true;
    try {
      await fn();
    } catch (err) {
      onError(err as Error);
    } finally {
      running = false;
    }
  };
  // The server reports ready once the first pass is over (kube's post-start hooks gate readiness).
  const synced = run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return Object.assign(() => clearInterval(timer), { synced });
}
