/**
 * kube's admission Handler.WaitForReady: a plugin reading informers waits up to 10 s for their
 * first list, then refuses with 403 "not yet ready to handle request".
 */
import type { Informer } from '../../controllers/informer.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes } from '../interface.js';

const readyTimeoutMs = 10_000;

/** Returns at once when every informer has synced; else waits, and throws the 403 on timeout. */
export async function waitForReady(attrs: AdmissionAttributes, informers: readonly Informer[]): Promise<void> {
  if (informers.every((i) => i.hasSynced())) return;
  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    Promise.all(informers.map((i) => i.synced)).then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), readyTimeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!ready) throw admissionForbidden(attrs, 'not yet ready to handle request');
}
