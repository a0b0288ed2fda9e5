/**
 * The admission chain as traced when tracing is on: each phase of a traced request that runs any
 * plugin is a span ("mutating admission", "validating admission") naming the plugins it runs, so
 * that what they do (reads, webhook calls) shows beneath it. Without tracing the plain chain is used.
 */
import { AdmissionChain } from '../../admission/chain.js';
import type { AdmissionAttributes, AdmissionObserver, AdmissionPlugin } from '../../admission/interface.js';
import type { RequestContext } from '../../request/context.js';
import { activeTrace, inChildSpan } from './context.js';

/** An AdmissionChain whose phases are spans of the current trace. */
export class TracedAdmissionChain extends AdmissionChain {
  constructor(
    private readonly traced: readonly AdmissionPlugin[],
    observer?: AdmissionObserver,
  ) {
    super(traced, observer);
  }

  override admit(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    const t = activeTrace();
    const plugins = t ? this.running(attrs, 'admit') : '';
    if (!t || plugins === '') return super.admit(attrs, ctx);
    return inChildSpan(t, 'mutating admission', this.attributes(attrs, plugins), () => super.admit(attrs, ctx));
  }

  override validate(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    const t = activeTrace();
    const plugins = t ? this.running(attrs, 'validate') : '';
    if (!t || plugins === '') return super.validate(attrs, ctx);
    return inChildSpan(t, 'validating admission', this.attributes(attrs, plugins), () => super.validate(attrs, ctx));
  }

  /** The names of the plugins the phase runs for attrs, comma-separated ("" for none: no span). */
  private running(attrs: AdmissionAttributes, phase: 'admit' | 'validate'): string {
    return this.traced
      .filter((p) => p[phase] !== undefined && p.handles(attrs.operation))
      .map((p) => p.name)
      .join(',');
  }

  private attributes(attrs: AdmissionAttributes, plugins: string): Record<string, string> {
    return { operation: attrs.operation, resource: attrs.resource, namespace: attrs.namespace, name: attrs.name, plugins };
  }
}
