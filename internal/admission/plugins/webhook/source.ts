/**
 * The webhooks of one configuration resource (mutating or validating), read from its shared
 * informer and compiled again only after a configuration changed.
 */
import type { Informer } from '../../../controllers/informer.js';
import { compileConfigurations } from './accessor.js';
import type { WebhookAccessor } from './types.js';

/** How long a request waits for the first list before kube's "not yet ready" refusal. */
const readyTimeoutMs = 10_000;

/** Webhooks from an informer of Validating- or MutatingWebhookConfigurations. */
export class HookSource {
  private hooks: WebhookAccessor[] | undefined;

  constructor(private readonly informer: Informer) {
    const invalidate = () => {
      this.hooks = undefined;
    };
    informer.addHandlers({ added: invalidate, updated: invalidate, deleted: invalidate });
  }

  /** Whether the informer has listed once (no waiting). */
  synced(): boolean {
    return this.informer.hasSynced();
  }

  /** Whether the informer has listed once, waiting up to 10 s for it. */
  async ready(): Promise<boolean> {
    if (this.informer.hasSynced()) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), readyTimeoutMs);
      timer.unref();
    });
    const ok = await Promise.race([this.informer.synced.then(() => true), timeout]);
    clearTimeout(timer);
    return ok;
  }

  /** The webhooks in kube's order. Never mutate the list. */
  webhooks(): readonly WebhookAccessor[] {
    this.hooks ??= compileConfigurations(this.informer.list());
    return this.hooks;
  }
}
