/**
 * The policies and bindings the plugin enforces, kept from their shared informers: each policy
 * compiled once per resourceVersion, each binding's matchResources parsed once, bindings grouped
 * under the policy they name. A snapshot is rebuilt only after an informer event, so a request
 * reads one array.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import { compilePolicy, type CompiledPolicy } from './compile.js';
import { compileMatch, type CompiledMatch } from './match.js';

/** A binding with its parsed match. */
export interface CompiledBinding {
  readonly binding: KubeObject;
  readonly name: string;
  readonly match: CompiledMatch | undefined;
  readonly matchError: string | undefined;
  readonly validationActions: readonly string[];
}

/** A policy with the bindings that name it. */
export interface PolicyHook {
  readonly policy: CompiledPolicy;
  readonly bindings: readonly CompiledBinding[];
}

function compileBinding(b: KubeObject): CompiledBinding {
  const spec = (b.spec ?? {}) as Record<string, unknown>;
  let match: CompiledMatch | undefined;
  let matchError: string | undefined;
  try {
    match = spec.matchResources ? compileMatch(spec.matchResources as Record<string, unknown>, true) : undefined;
  } catch (err) {
    matchError = (err as Error).message;
  }
  return { binding: b, name: b.metadata.name ?? '', match, matchError, validationActions: (spec.validationActions as string[] | undefined) ?? [] };
}

/** Keeps hooks current from the two informers. */
export class PolicySource {
  private snapshot: readonly PolicyHook[] | undefined;
  private readonly policies = new Map<string, { rv: string; compiled: CompiledPolicy }>();
  private readonly bindings = new Map<string, { rv: string; compiled: CompiledBinding }>();

  constructor(
    private readonly policyInformer: Informer,
    private readonly bindingInformer: Informer,
  ) {
    const dirty = { added: () => this.invalidate(), updated: () => this.invalidate(), deleted: () => this.invalidate() };
    policyInformer.addHandlers(dirty);
    bindingInformer.addHandlers(dirty);
  }

  private invalidate(): void {
    this.snapshot = undefined;
  }

  /** Resolves once both informers have listed. */
  get synced(): Promise<unknown> {
    return Promise.all([this.policyInformer.synced, this.bindingInformer.synced]);
  }

  /** The current hooks (policies with at least one binding). */
  hooks(): readonly PolicyHook[] {
    if (this.snapshot) return this.snapshot;
    const byPolicy = new Map<string, CompiledBinding[]>();
    const seenBindings = new Set<string>();
    for (const b of this.bindingInformer.list()) {
      const name = b.metadata.name ?? '';
      seenBindings.add(name);
      let entry = this.bindings.get(name);
      if (!entry || entry.rv !== b.metadata.resourceVersion) {
        entry = { rv: b.metadata.resourceVersion ?? '', compiled: compileBinding(b) };
        this.bindings.set(name, entry);
      }
      const policyName = String((b.spec as { policyName?: string } | undefined)?.policyName ?? '');
      const list = byPolicy.get(policyName) ?? [];
      list.push(entry.compiled);
      byPolicy.set(policyName, list);
    }
    for (const k of this.bindings.keys()) if (!seenBindings.has(k)) this.bindings.delete(k);
    const hooks: PolicyHook[] = [];
    const seenPolicies = new Set<string>();
    for (const p of this.policyInformer.list()) {
      const name = p.metadata.name ?? '';
      seenPolicies.add(name);
      const bound = byPolicy.get(name);
      if (!bound) continue;
      let entry = this.policies.get(name);
      if (!entry || entry.rv !== p.metadata.resourceVersion) {
        entry = { rv: p.metadata.resourceVersion ?? '', compiled: compilePolicy(p) };
        this.policies.set(name, entry);
      }
      hooks.push({ policy: entry.compiled, bindings: bound.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) });
    }
    for (const k of this.policies.keys()) if (!seenPolicies.has(k)) this.policies.delete(k);
    hooks.sort((a, b) => (a.policy.name < b.policy.name ? -1 : a.policy.name > b.policy.name ? 1 : 0));
    this.snapshot = hooks;
    return hooks;
  }
}
