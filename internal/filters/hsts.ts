/**
 * The HSTS filter (kube's WithHSTS), on when --strict-transport-security-directives names
 * directives: every response carries `Strict-Transport-Security` with them joined by "; ", errors
 * included (the header is set before anything later in the chain can answer).
 */
import type { Filter } from './interface.js';

/** Builds the filter for validated directives; undefined when there are none (no header, as in kube). */
export function withHSTS(directives: readonly string[]): Filter | undefined {
  if (directives.length === 0) return undefined;
  const value = directives.join('; ');
  return (_req, res) => {
    if (!res.hasHeader('Strict-Transport-Security')) res.setHeader('Strict-Transport-Security', value);
  };
}
