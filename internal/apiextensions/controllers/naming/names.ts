/**
 * The naming decision of kube's NamingConditionController: which of a CRD's requested names
 * (spec.names) it may have, given the names the other CRDs of its group have already accepted, and
 * the NamesAccepted and Established conditions that follow. First come, first served: a CRD keeps
 * the names it holds in status.acceptedNames, and a name another CRD holds is refused.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { aggregateMessages, goQuote } from '../../../validation/field-error.js';
import { Established, findCondition, NamesAccepted, type CrdCondition } from '../conditions.js';

/** spec.names / status.acceptedNames, in kube's field order. */
export interface CrdNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

/** The names in use in a group: resource names (plural, singular, short) and kinds (kind, listKind). */
export interface UsedNames {
  readonly resources: ReadonlySet<string>;
  readonly kinds: ReadonlySet<string>;
}

/** What a CRD's names come to. */
export interface NamingResult {
  readonly acceptedNames: CrdNames;
  readonly namesAccepted: Omit<CrdCondition, 'lastTransitionTime'>;
  readonly established: Omit<CrdCondition, 'lastTransitionTime'>;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/** Reads a names struct (spec.names or status.acceptedNames) of a CRD; missing fields are Go's zero values. */
export function readNames(v: unknown): CrdNames {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const str = (k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
  const out: CrdNames = { plural: str('plural'), kind: str('kind') };
  if (str('singular')) out.singular = str('singular');
  const shortNames = strings(o.shortNames);
  if (shortNames?.length) out.shortNames = shortNames;
  if (str('listKind')) out.listKind = str('listKind');
  const categories = strings(o.categories);
  if (categories?.length) out.categories = categories;
  return ordered(out);
}

/** The names in kube's JSON field order, without empty optional fields. */
function ordered(n: CrdNames): CrdNames {
  const out: CrdNames = { plural: n.plural } as CrdNames;
  if (n.singular) out.singular = n.singular;
  if (n.shortNames?.length) out.shortNames = n.shortNames;
  out.kind = n.kind;
  if (n.listKind) out.listKind = n.listKind;
  if (n.categories?.length) out.categories = n.categories;
  return out;
}

/** Adds the accepted names of one CRD to the sets. */
export function addAcceptedNames(names: CrdNames, resources: Set<string>, kinds: Set<string>): void {
  resources.add(names.plural);
  resources.add(names.singular ?? '');
  for (const s of names.shortNames ?? []) resources.add(s);
  kinds.add(names.kind);
  kinds.add(names.listKind ?? '');
}

/** kube's equalToAcceptedOrFresh: the requested name is fine when it is already ours or unused. */
function conflict(requested: string, accepted: string, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${goQuote(requested)} is already in use`;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b?.[i]);

/**
 * Computes the accepted names and conditions of crd (kube's calculateNamesAndConditions). used
 * holds every name accepted in the CRD's group, its own included. Never mutates.
 */
export function calculateNames(crd: KubeObject, used: UsedNames): NamingResult {
  const requested = readNames((crd.spec as Record<string, unknown> | undefined)?.names);
  const accepted = readNames((crd.status as Record<string, unknown> | undefined)?.acceptedNames);
  const next: CrdNames = { ...accepted };
  let failure: { reason: string; message: string } | undefined;
  const check = (field: 'plural' | 'singular' | 'kind' | 'listKind', reason: string, set: ReadonlySet<string>): void => {
    const err = conflict(requested[field] ?? '', accepted[field] ?? '', set);
    if (err) failure = { reason, message: err };
    else next[field] = requested[field] as string;
  };
  check('plural', 'PluralConflict', used.resources);
  check('singular', 'SingularConflict', used.resources);
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const held = new Set(accepted.shortNames ?? []);
    const errs: string[] = [];
    for (const s of requested.shortNames ?? []) {
      // Our own plural and singular are in used too (we read our own status back).
      if (held.has(s) || s === accepted.plural || s === accepted.singular) continue;
      const err = conflict(s, '', used.resources);
      if (err) errs.push(err);
    }
    if (errs.length > 0) failure = { reason: 'ShortNamesConflict', message: aggregateMessages(errs) };
    else next.shortNames = requested.shortNames ?? [];
  }
  check('kind', 'KindConflict', used.kinds);
  check('listKind', 'ListKindConflict', used.kinds);
  next.categories = requested.categories ?? [];

  const namesAccepted = failure
    ? { type: NamesAccepted, status: 'False' as const, ...failure }
    : { type: NamesAccepted, status: 'True' as const, reason: 'NoConflicts', message: 'no conflicts found' };
  // Established turns True in the establishing controller, once the served endpoint sees the names.
  const old = findCondition(crd, Established);
  let established: Omit<CrdCondition, 'lastTransitionTime'> = old
    ? { type: old.type, status: old.status, reason: old.reason ?? '', message: old.message ?? '' }
    : { type: Established, status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: Established, status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: ordered(next), namesAccepted, established };
}

/** Whether two names structs are equal as Go's semantic equality sees them (nil and empty lists alike). */
export function sameNames(a: CrdNames, b: CrdNames): boolean {
  return (
    a.plural === b.plural &&
    (a.singular ?? '') === (b.singular ?? '') &&
    sameList(a.shortNames, b.shortNames) &&
    a.kind === b.kind &&
    (a.listKind ?? '') === (b.listKind ?? '') &&
    sameList(a.categories, b.categories)
  );
}
