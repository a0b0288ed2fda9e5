/**
 * Toleration arithmetic kube's pod plugins share (pkg/util/tolerations and the core helpers): one
 * toleration covering another, merging lists without redundant entries, checking a list against a
 * whitelist, and adding or updating one toleration in a pod. An absent field equals an empty one,
 * as in kube's Go structs.
 */
import type { PodSpec, Toleration } from './pod-types.js';

/** Semantic equality of two tolerations. */
export function tolerationsEqual(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '') &&
    a.tolerationSeconds === b.tolerationSeconds
  );
}

/** Whether ss tolerates everything t tolerates. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (tolerationsEqual(ss, t)) return true;
  const ssKey = ss.key ?? '';
  // An empty key with Exists matches every key.
  if ((t.key ?? '') !== ssKey && (ssKey !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined && ss.tolerationSeconds !== null) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** first and second as one list, without an entry another one covers (the first of equal ones kept). */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  next: for (const [i, t] of all.entries()) {
    for (const m of merged) if (isSuperset(m, t)) continue next;
    for (const later of all.slice(i + 1)) {
      if (!tolerationsEqual(t, later) && isSuperset(later, t)) continue next;
    }
    merged.push(t);
  }
  return merged;
}

/** Whether every toleration is covered by one of the whitelist (an empty whitelist allows all). */
export function verifyAgainstWhitelist(tolerations: readonly Toleration[], whitelist: readonly Toleration[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}

/** Whether two tolerations are about the same key, operator, value and effect (kube's MatchToleration). */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (a.key ?? '') === (b.key ?? '') && (a.effect ?? '') === (b.effect ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '');
}

/** Adds toleration to the spec, or replaces the matching one that differs; false when already there. */
export function addOrUpdateToleration(spec: PodSpec, toleration: Toleration): boolean {
  const list = spec.tolerations ?? [];
  let updated = false;
  const out: Toleration[] = [];
  for (const t of list) {
    if (sameToleration(t, toleration)) {
      if (tolerationsEqual(t, toleration)) return false;
      out.push(toleration);
      updated = true;
      continue;
    }
    out.push(t);
  }
  if (!updated) out.push(toleration);
  spec.tolerations = out;
  return true;
}

/** A toleration list from JSON (namespace annotations, plugin configuration); throws on another shape. */
export function parseTolerations(value: unknown, what: string): Toleration[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${what}: expected a list of tolerations`);
  return value.map((t, i) => {
    if (!t || typeof t !== 'object' || Array.isArray(t)) throw new Error(`${what}[${i}]: expected an object`);
    const o = t as Record<string, unknown>;
    const out: Toleration = {};
    for (const k of ['key', 'operator', 'value', 'effect'] as const) {
      if (o[k] === undefined || o[k] === null) continue;
      if (typeof o[k] !== 'string') throw new Error(`${what}[${i}].${k}: expected a string`);
      out[k] = o[k] as string;
    }
    if (o.tolerationSeconds !== undefined && o.tolerationSeconds !== null) {
      if (typeof o.tolerationSeconds !== 'number' || !Number.isInteger(o.tolerationSeconds)) throw new Error(`${what}[${i}].tolerationSeconds: expected an integer`);
      out.tolerationSeconds = o.tolerationSeconds;
    }
    return out;
  });
}
