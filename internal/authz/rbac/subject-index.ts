/**
 * The bindings of one scope (cluster-wide, or one namespace) indexed by the subjects they name:
 * by user name (User subjects, and ServiceAccount subjects under the service account's user name
 * system:serviceaccount:<ns>:<name>) and by group name. A decision reads the lists of the user's
 * name and groups only, never every binding.
 */
import type { AuthorizationDecision } from '../interface.js';
import type { CompiledRole } from './compiled-role.js';
import { subjectUsername } from './subjects.js';
import type { RoleRef, Subject } from './types.js';

/**
 * The current state of one role reference, shared by the role and every binding naming it, so a
 * decision reaches a binding's rules without a lookup. role is undefined while the role does not exist.
 */
export interface RoleSlot {
  role: CompiledRole | undefined;
  /** The bindings holding the slot, plus one while the role exists; the slot is dropped at zero. */
  refs: number;
}

/** A RoleBinding or ClusterRoleBinding as the index keeps it. Immutable but for its caches. */
export interface IndexedBinding {
  readonly kind: 'ClusterRoleBinding' | 'RoleBinding';
  readonly name: string;
  /** The binding's namespace; '' for a ClusterRoleBinding. */
  readonly namespace: string;
  readonly roleRef: RoleRef;
  /** The referenced role's slot. */
  readonly slot: RoleSlot;
  readonly subjects: readonly Subject[];
  /** For each subject, the user name it stands for (User, ServiceAccount), undefined for a Group. */
  readonly subjectUsers: readonly (string | undefined)[];
  /**
   * The Allow decision for each subject, built the first time a request is allowed through it (the
   * reason is the same for every such request): decisions then allocate nothing.
   */
  readonly allowed: (AuthorizationDecision | undefined)[];
}

function push(map: Map<string, IndexedBinding[]>, key: string, b: IndexedBinding): void {
  const list = map.get(key);
  if (!list) map.set(key, [b]);
  else if (!list.includes(b)) list.push(b);
}

function pull(map: Map<string, IndexedBinding[]>, key: string, b: IndexedBinding): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(b);
  if (i >= 0) list.splice(i, 1);
  if (list.length === 0) map.delete(key);
}

/** The index of b's first subject naming user (kube's appliesTo, with user names precomputed), -1 if none. */
export function firstSubjectNaming(b: IndexedBinding, user: { readonly name: string; readonly groups: readonly string[] }): number {
  for (let i = 0; i < b.subjects.length; i++) {
    const s = b.subjects[i] as Subject;
    if (s.kind === 'Group' ? user.groups.includes(s.name) : b.subjectUsers[i] === user.name) return i;
  }
  return -1;
}

/** One scope's bindings by subject. Lists are read by decisions and must not be mutated outside. */
export class SubjectIndex {
  readonly byUser = new Map<string, IndexedBinding[]>();
  readonly byGroup = new Map<string, IndexedBinding[]>();

  /** Indexes b under every subject it names. */
  add(b: IndexedBinding): void {
    for (const s of b.subjects) {
      if (s.kind === 'Group') push(this.byGroup, s.name, b);
      else {
        const user = subjectUsername(s, b.namespace);
        if (user !== undefined) push(this.byUser, user, b);
      }
    }
  }

  /** Removes b (the same object that was added). */
  remove(b: IndexedBinding): void {
    for (const s of b.subjects) {
      if (s.kind === 'Group') pull(this.byGroup, s.name, b);
      else {
        const user = subjectUsername(s, b.namespace);
        if (user !== undefined) pull(this.byUser, user, b);
      }
    }
  }

  /** Whether nothing is indexed. */
  isEmpty(): boolean {
    return this.byUser.size === 0 && this.byGroup.size === 0;
  }
}
