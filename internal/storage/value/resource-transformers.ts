/**
 * Which transformer each resource uses (kube's DynamicTransformers and transformerFromOverrides):
 * the rule for the exact group and resource, else the group's "*.group" rule, else "*.*", else
 * none (values are stored as they are, and encrypted ones are refused). A reload replaces the
 * rules at once for every resource; stores hold a slot per resource and read its current
 * transformer on every call, so no lock or lookup sits on their path.
 */
import type { ValueTransformer } from './interface.js';

/** A group ("" for the core API) and resource, "*" standing for any in rules. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** The current transformer of one resource; undefined when no rule names it. */
export interface TransformerSlot {
  readonly current: ValueTransformer | undefined;
}

/** Hands out slots (what the etcd3 store needs). */
export interface TransformerSource {
  /** The slot of gr (as stored: see storageGroupResource); the same object for the same gr. */
  slotFor(gr: GroupResource): TransformerSlot;
}

/**
 * The group and resource a resource is stored as: events.k8s.io events share core events'
 * storage (kube's config names them "events"), everything else is stored as itself.
 */
export function storageGroupResource(gr: GroupResource): GroupResource {
  if (gr.group === 'events.k8s.io' && gr.resource === 'events') return { group: '', resource: 'events' };
  return gr;
}

function keyOf(gr: GroupResource): string {
  return `${gr.group}/${gr.resource}`;
}

/** Rules by "group/resource" key (with "*" wildcards), as the config builds them. */
export type TransformerRules = ReadonlyMap<string, ValueTransformer>;

/** The rules' key for a group and resource (wildcards included). */
export function ruleKey(gr: GroupResource): string {
  return keyOf(gr);
}

function resolve(rules: TransformerRules, gr: GroupResource): ValueTransformer | undefined {
  return rules.get(keyOf(gr)) ?? rules.get(`${gr.group}/*`) ?? rules.get('*/*');
}

/** The server's per-resource transformers; set() swaps every rule at once (automatic reload). */
export class ResourceTransformers implements TransformerSource {
  private readonly slots = new Map<string, { current: ValueTransformer | undefined; readonly gr: GroupResource }>();

  constructor(private rules: TransformerRules) {}

  slotFor(gr: GroupResource): TransformerSlot {
    const stored = storageGroupResource(gr);
    const key = keyOf(stored);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { current: resolve(this.rules, stored), gr: stored };
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** Replaces the rules; every slot sees its new transformer from its next call on. */
  set(rules: TransformerRules): void {
    this.rules = rules;
    for (const slot of this.slots.values()) slot.current = resolve(rules, slot.gr);
  }
}
