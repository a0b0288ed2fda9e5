/**
 * kube's APF configuration ensurer: mandatory objects are created when missing and their spec
 * (and autoupdate annotation) put back when changed; suggested objects are created when missing
 * and updated only while apf.kubernetes.io/autoupdate-spec is "true" (or, without a boolean there,
 * while the object is at generation 1); objects of neither list whose annotation is "true" are
 * deleted. The exempt level's nominalConcurrencyShares and lendablePercent belong to the user.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { ResourceClient } from '../resource-client.js';
import { autoUpdateAnnotation } from './flowcontrol-defaults.js';

/** One kind's objects: what exists (an informer's copy), how to write, and the bootstrap lists. */
export interface EnsureTarget {
  readonly existing: () => Iterable<KubeObject>;
  readonly client: ResourceClient;
  readonly mandatory: readonly KubeObject[];
  readonly suggested: readonly KubeObject[];
}

/** strconv.ParseBool of the annotation, undefined when absent or not a bool. */
function parseBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** Whether a suggested object's spec is kept up to date (kube's shouldUpdateSpec). */
export function shouldUpdateSpec(obj: KubeObject): boolean {
  const value = parseBool(obj.metadata.annotations?.[autoUpdateAnnotation]);
  if (value !== undefined) return value;
  return obj.metadata.generation === 1;
}

/** JSON with sorted keys, so specs compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The bootstrap spec as it should be on existing (the exempt level keeps the user's shares and lending). */
function wantedSpec(bootstrap: KubeObject, existing: KubeObject): unknown {
  const spec = structuredClone(bootstrap.spec) as Record<string, unknown>;
  const userExempt = (existing.spec as { exempt?: Record<string, unknown> } | undefined)?.exempt;
  const exempt = spec.exempt as Record<string, unknown> | undefined;
  if (bootstrap.kind === 'PriorityLevelConfiguration' && exempt && userExempt) {
    for (const field of ['nominalConcurrencyShares', 'lendablePercent']) if (userExempt[field] !== undefined) exempt[field] = userExempt[field];
  }
  return spec;
}

/** The revised object, or undefined when existing needs no change. */
export function revise(bootstrap: KubeObject, existing: KubeObject, mandatory: boolean): KubeObject | undefined {
  if (!mandatory && !shouldUpdateSpec(existing)) return undefined;
  const spec = wantedSpec(bootstrap, existing);
  const annotated = existing.metadata.annotations?.[autoUpdateAnnotation] === 'true';
  if (annotated && canonical(spec) === canonical(existing.spec)) return undefined;
  const out = structuredClone(existing);
  out.metadata.annotations = { ...out.metadata.annotations, [autoUpdateAnnotation]: 'true' };
  out.spec = spec;
  return out;
}

/** One pass over a kind; throws the first write error (the caller retries). */
export async function ensureKind(target: EnsureTarget, log: (m: string) => void): Promise<void> {
  const byName = new Map<string, KubeObject>();
  for (const obj of target.existing()) byName.set(obj.metadata.name ?? '', obj);
  const wanted = new Set<string>();
  for (const [list, mandatory] of [
    [target.mandatory, true],
    [target.suggested, false],
  ] as const) {
    for (const bootstrap of list) {
      const name = bootstrap.metadata.name ?? '';
      wanted.add(name);
      const existing = byName.get(name);
      if (!existing) {
        try {
          await target.client.create(bootstrap);
          log(`created ${String(bootstrap.kind)} ${name}`);
        } catch (err) {
          if (!hasReason(err, 'AlreadyExists')) throw err;
        }
        continue;
      }
      if (!revise(bootstrap, existing, mandatory)) continue;
      await target.client.update(name, '', (current) => revise(bootstrap, current, mandatory) ?? current);
      log(`updated ${String(bootstrap.kind)} ${name} to its default spec`);
    }
  }
  for (const [name, obj] of byName) {
    if (wanted.has(name) || parseBool(obj.metadata.annotations?.[autoUpdateAnnotation]) !== true) continue;
    try {
      await target.client.delete(name, '', { resourceVersion: obj.metadata.resourceVersion ?? '' });
      log(`deleted ${String(obj.kind ?? 'object')} ${name}: no longer part of the default configuration`);
    } catch (err) {
      if (!hasReason(err, 'NotFound') && !hasReason(err, 'Conflict')) throw err;
    }
  }
}
