/**
 * The bindings of one scope (cluster-wide, or one namespace) indexed by the subjects they name:
 * by user name (User subjects, and ServiceAccount subjects under the service account's user name
 * system:serviceaccount:<ns>:<name>) and by group name. A decision reads the lists of the user's
 * name and groups only, never every binding.
 */
import { subjectUsername } from './subjects.js';
import type { RoleRef, Subject } from './types.js';

/** A RoleBinding or ClusterRoleBinding as the index keeps it. Immutable. */
export interface IndexedBinding {
  readonly kind: 'ClusterRoleBinding' | 'RoleBinding';
  readonly name: string;
  /** The binding's namespace; '' for a ClusterRoleBinding. */
  readonly namespace: string;
  readonly roleRef: RoleRef;
  /** The key of the referenced role: a ClusterRole's name, or "<namespace>/<name>" of a Role. */
  readonly roleKey: string;
  readonly subjects: readonly Subject[];
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
