/**
 * kube's ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames): DNS-1035
 * plural, singular, short names and categories; kind and listKind DNS-1035 once lowercased, and
 * never equal. Never mutates.
 */
import { childPath, indexPath, invalid, type FieldError } from '../../validation/field-error.js';
import { isDNS1035Label } from '../../validation/label-values.js';
import { str, type Json } from './schema-walk.js';

const mixedCase = 'may have mixed case, but should otherwise match: ';

/** The naming rules of names (a CustomResourceDefinitionNames) at path. */
export function validateNames(names: Json | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const n = names ?? {};
  for (const f of ['plural', 'singular'] as const) {
    const v = str(n[f]);
    const msgs = isDNS1035Label(v);
    if (v && msgs.length > 0) errs.push(invalid(childPath(path, f), v, msgs.join(',')));
  }
  for (const f of ['kind', 'listKind'] as const) {
    const v = str(n[f]);
    const msgs = isDNS1035Label(v.toLowerCase());
    if (v && msgs.length > 0) errs.push(invalid(childPath(path, f), v, mixedCase + msgs.join(',')));
  }
  const list = (key: string) => (Array.isArray(n[key]) ? (n[key] as unknown[]) : []);
  list('shortNames').forEach((s, i) => {
    const msgs = isDNS1035Label(str(s));
    if (msgs.length > 0) errs.push(invalid(indexPath(childPath(path, 'shortNames'), i), s, msgs.join(',')));
  });
  const kind = str(n.kind);
  if (kind && kind === str(n.listKind)) errs.push(invalid(childPath(path, 'listKind'), kind, 'kind and listKind may not be the same'));
  list('categories').forEach((c, i) => {
    const msgs = isDNS1035Label(str(c));
    if (msgs.length > 0) errs.push(invalid(indexPath(childPath(path, 'categories'), i), c, msgs.join(',')));
  });
  return errs;
}
