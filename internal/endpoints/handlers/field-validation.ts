/**
 * The fieldValidation directive applied to what strict decoding found in a body: repeated keys
 * (JSON paths, or go-yaml's line messages for YAML) and unknown fields. Warn adds one warning per
 * finding, Strict refuses the request with kube's `strict decoding error: ...` 400, Ignore does
 * nothing.
 */
import { newBadRequest } from '../../apierrors/factories.js';
import { addWarning, type RequestContext } from '../../request/context.js';
import { goQuote } from '../../validation/field-error.js';
import { unknownFieldMessage } from '../../validation/schema/index.js';
import type { FieldValidation } from './write-options.js';

/** What strict decoding found, already worded. */
export interface StrictFindings {
  /** go-yaml's `line N: key "k" already set in map`, one per repeated key. */
  readonly yamlDuplicates: readonly string[];
  /** `duplicate field "p"` and `unknown field "p"`, in document order. */
  readonly messages: readonly string[];
}

/** The Status message prefix kube uses for any decode failure of kind in version. */
export function cannotBeHandled(kind: string, version: string): string {
  return `${kind} in version "${version}" cannot be handled as a ${kind}`;
}

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}

/** Every path of value, in depth-first document order, with its position. */
function documentOrder(value: unknown): Map<string, number> {
  const order = new Map<string, number>();
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        const p = `${path}[${i}]`;
        order.set(p, order.size);
        walk(x, p);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        order.set(p, order.size);
        walk(x, p);
      }
    }
  };
  walk(value, '');
  return order;
}

/**
 * The field messages of a decoded object in document order: unknown fields, and repeated keys
 * that are not themselves unknown or under an unknown field (kube reports those only as unknown).
 */
export function orderedFieldMessages(decoded: unknown, unknownPaths: readonly string[], duplicatePaths: readonly string[]): string[] {
  const dups = duplicatePaths.filter((d) => !unknownPaths.some((u) => under(d, u)));
  if (dups.length === 0) return unknownPaths.map(unknownFieldMessage);
  const order = documentOrder(decoded);
  const entries = [
    ...unknownPaths.map((p) => ({ p, m: unknownFieldMessage(p) })),
    ...dups.map((p) => ({ p, m: `duplicate field ${goQuote(p)}` })),
  ];
  entries.sort((a, b) => (order.get(a.p) ?? Number.MAX_SAFE_INTEGER) - (order.get(b.p) ?? Number.MAX_SAFE_INTEGER));
  return entries.map((e) => e.m);
}

/**
 * Applies the directive: warnings for Warn, a 400 for Strict (prefixed as kube prefixes decode
 * errors), or what raise makes of the detail (a patch result's 422).
 */
export function applyFieldValidation(
  ctx: RequestContext,
  directive: FieldValidation,
  prefix: string | undefined,
  findings: StrictFindings,
  raise?: (detail: string) => Error,
): void {
  if (directive === 'Ignore') return;
  if (findings.yamlDuplicates.length === 0 && findings.messages.length === 0) return;
  if (directive === 'Strict') {
    const parts: string[] = [];
    if (findings.yamlDuplicates.length > 0) parts.push(`yaml: unmarshal errors:\n${findings.yamlDuplicates.map((l) => `  ${l}`).join('\n')}`);
    parts.push(...findings.messages);
    const detail = `strict decoding error: ${parts.join(', ')}`;
    if (raise) throw raise(detail);
    throw newBadRequest(prefix ? `${prefix}: ${detail}` : detail);
  }
  for (const l of findings.yamlDuplicates) addWarning(ctx, l);
  for (const m of findings.messages) addWarning(ctx, m);
}
