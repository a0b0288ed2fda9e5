/**
 * Which user a binding's subject names (kube's appliesTo): a User subject by name, a
 * ServiceAccount subject the user system:serviceaccount:<ns>:<name> (a RoleBinding's subject
 * without a namespace means the binding's own); Group subjects name groups. Also kube's wording of
 * a subject in the authorizer's reasons.
 */
import { goQuote } from '../../validation/field-error.js';
import type { Subject } from './types.js';

/** The prefix of every service account's user name. */
export const serviceAccountUserPrefix = 'system:serviceaccount:';

/** The user name of service account name in namespace. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountUserPrefix}${namespace}:${name}`;
}

/**
 * The user name a subject stands for when it names one user (User, ServiceAccount), undefined for
 * a Group or a ServiceAccount without any namespace. bindingNamespace is '' for cluster bindings.
 */
export function subjectUsername(s: Subject, bindingNamespace: string): string | undefined {
  if (s.kind === 'User') return s.name;
  if (s.kind !== 'ServiceAccount') return undefined;
  const ns = s.namespace || bindingNamespace;
  return ns ? serviceAccountUsername(ns, s.name) : undefined;
}

/** kube's describeSubject: `User "x"`, `Group "x"`, `ServiceAccount "name/namespace"`. */
export function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}
