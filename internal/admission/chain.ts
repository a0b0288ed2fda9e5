/**
 * The admission chain: itself an AdmissionPlugin that runs its plugins in order, all mutating
 * ones in admit and all validating ones in validate. With an observer, each phase and each plugin
 * call is timed (kube's admission step and controller metrics).
 */
import { performance } from 'node:perf_hooks';
import type { RequestContext } from '../request/context.js';
import type { AdmissionAttributes, AdmissionObserver, AdmissionOperation, AdmissionPlugin, AdmissionStepType } from './interface.js';

/** Runs plugins in order; the first refusal stops the chain. */
export class AdmissionChain implements AdmissionPlugin {
  readonly name = 'chain';

  constructor(
    private readonly plugins: readonly AdmissionPlugin[],
    private readonly observer?: AdmissionObserver,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return this.plugins.some((p) => p.handles(operation));
  }

  async admit(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    if (this.observer) return await this.observed('admit', attrs, ctx, this.observer);
    for (const p of this.plugins) if (p.admit && p.handles(attrs.operation)) await p.admit(attrs, ctx);
  }

  async validate(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    if (this.observer) return await this.observed('validate', attrs, ctx, this.observer);
    for (const p of this.plugins) if (p.validate && p.handles(attrs.operation)) await p.validate(attrs, ctx);
  }

  /** One phase with every plugin call and the whole phase timed for the observer. */
  private async observed(type: AdmissionStepType, attrs: AdmissionAttributes, ctx: RequestContext, observer: AdmissionObserver): Promise<void> {
    const op = attrs.operation;
    const start = performance.now();
    let rejected = false;
    try {
      for (const p of this.plugins) {
        const call = type === 'admit' ? p.admit : p.validate;
        if (!call || !p.handles(op)) continue;
        const t = performance.now();
        try {
          await call.call(p, attrs, ctx);
        } catch (err) {
          observer.controller(p.name, type, op, true, (performance.now() - t) / 1000);
          throw err;
        }
        observer.controller(p.name, type, op, false, (performance.now() - t) / 1000);
      }
    } catch (err) {
      rejected = true;
      throw err;
    } finally {
      observer.step(type, op, rejected, (performance.now() - start) / 1000);
    }
  }

  /** The names of the plugins, in order. */
  names(): string[] {
    return this.plugins.map((p) => p.name);
  }
}
