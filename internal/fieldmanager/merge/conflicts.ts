/**
 * Apply conflicts (structured-merge-diff merge/conflict.go): a field another manager owns whose
 * value the applier would change. The error text groups them by sorted manager name.
 */
import { FieldSet } from '../field-set.js';
import { pathToString, type Path } from '../path-element.js';
import { goQuote } from '../value.js';
import type { ManagedFields } from './managed-fields.js';

/** One conflicting field and the manager that owns it. */
export interface Conflict {
  readonly manager: string;
  readonly path: Path;
}

/** merge.Conflicts: thrown by a non-forced apply that would change other managers' fields. */
export class ConflictsError extends Error {
  readonly conflicts: readonly Conflict[];

  constructor(conflicts: readonly Conflict[]) {
    super(conflictsMessage(conflicts, goQuote));
    this.name = 'ConflictsError';
    this.conflicts = conflicts;
  }

  /** Conflicts.ToSet: the union of the conflicting paths. */
  toSet(): FieldSet {
    return FieldSet.of(...this.conflicts.map((c) => c.path));
  }
}

/** Conflicts.Error with a manager printer: one conflict on one line, several grouped by sorted manager. */
export function conflictsMessage(conflicts: readonly Conflict[], printManager: (manager: string) => string): string {
  if (conflicts.length === 1) return `conflict with ${printManager(conflicts[0]!.manager)}: ${pathToString(conflicts[0]!.path)}`;
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager) ?? [];
    list.push(c.path);
    byManager.set(c.manager, list);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${pathToString(p)}`);
  }
  return lines.join('\n');
}

/** ConflictsFromManagers: one conflict per path of each manager's set (managers in sorted order). */
export function conflictsFromManagers(sets: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort()) {
    sets.get(manager)!.set.iterate((path) => out.push({ manager, path }));
  }
  return out;
}
