/**
 * The admission chain: itself an AdmissionPlugin that runs its plugins in order, all mutating
 * ones in admit and all validating ones in validate.
 */
import type { RequestContext } from '../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from './interface.js';

/** Runs plugins in order; the first refusal stops the chain. */
export class AdmissionChain implements AdmissionPlugin {
  readonly name = 'chain';

  constructor(private readonly plugins: readonly AdmissionPlugin[]) {}

  handles(operation: AdmissionOperation): boolean {
    return this.plugins.some((p) => p.handles(operation));
  }

  async admit(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    for (const p of this.plugins) if (p.admit && p.handles(attrs.operation)) await p.admit(attrs, ctx);
  }

  async validate(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    for (const p of this.plugins) if (p.validate && p.handles(attrs.operation)) await p.validate(attrs, ctx);
  }

  /** The names of the plugins, in order. */
  names(): string[] {
    return this.plugins.map((p) => p.name);
  }
}
