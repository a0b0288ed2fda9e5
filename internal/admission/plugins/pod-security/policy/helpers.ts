/**
 * The small text and traversal helpers every Pod Security check shares, so that details read
 * exactly as k8s.io/pod-security-admission words them.
 */
import type { Container, PodSpec } from '../pod-types.js';

/** `"a", "b"`: each item in double quotes (not escaped), comma-separated; '' for none. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** singular when count is 1, plural otherwise. */
export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** A set's members sorted as Go's sets.String.List() sorts them (by bytes). */
export function sortedList(set: ReadonlySet<string>): string[] {
  return [...set].sort(compareStrings);
}

/** Orders strings by code unit, as Go orders ASCII strings. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Calls visit with every init container, container and ephemeral container, in that order. */
export function visitContainers(spec: PodSpec, visit: (c: Container) => void): void {
  if (spec.initContainers) for (const c of spec.initContainers) visit(c);
  if (spec.containers) for (const c of spec.containers) visit(c);
  if (spec.ephemeralContainers) for (const c of spec.ephemeralContainers) visit(c);
}

/** `container "a"` or `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** Whether the pod declares itself a Windows pod (spec.os.name=windows). */
export function isWindowsPod(spec: PodSpec): boolean {
  return spec.os?.name === 'windows';
}
