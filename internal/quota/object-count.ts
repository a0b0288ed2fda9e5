/**
 * Object-count evaluators (kube's generic.NewObjectCountEvaluator): count/<resource>[.<group>] for
 * any resource, charged on create, and for configmaps, secrets, replicationcontrollers and
 * resourcequotas also their legacy names.
 */
import type { QuotaEvaluator } from './interface.js';
import { count, intersection } from './resource-list.js';

/** The object-count quota name of group/resource: count/pods, count/deployments.apps. */
export function objectCountName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** The group and resource a count/... name is about, or undefined when name is not one. */
export function parseObjectCountName(name: string): { group: string; resource: string } | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  if (!rest) return undefined;
  const dot = rest.indexOf('.');
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

/** An evaluator counting objects of group/resource, under alias too when given. */
export function newObjectCountEvaluator(group: string, resource: string, alias?: string): QuotaEvaluator {
  const names = alias ? [objectCountName(group, resource), alias] : [objectCountName(group, resource)];
  const usage = new Map(names.map((n) => [n, count(1)]));
  return {
    group,
    resource,
    scoped: false,
    handles: (attrs) => attrs.operation === 'CREATE',
    matchingResources: (input) => intersection(input, names),
    matchesScope: () => false,
    constraints: () => undefined,
    usage: () => usage,
  };
}
