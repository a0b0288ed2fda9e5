/**
 * --cors-allowed-origins (kube's ServerRunOptions): the origin patterns the CORS filter
 * (internal/filters/cors.ts) allows. Validated as kube validates them: every entry a regular
 * expression pinned to the start of the host (by "^" or "//") and to its end (by "$" or ":"),
 * so that "example.com" cannot let "example.com.evil.io" in (CVE-2022-1996).
 */
import { compileOriginPattern } from '../../filters/cors.js';
import { FlagError, stringSliceFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated CORS options. */
export interface CorsOptions {
  /** The patterns; empty: CORS is off. */
  readonly allowedOrigins: readonly string[];
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly cors?: CorsOptions;
  }
}

/** kube's help text, also appended to its validation errors. */
const helpText =
  "List of allowed origins for CORS, comma separated. An allowed origin can be a regular expression to support subdomain matching. If this list is empty CORS will not be enabled. Please ensure each expression matches the entire hostname by anchoring to the start with '^' or including the '//' prefix, and by anchoring to the end with '$' or including the ':' port separator suffix. Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

/** The defaults (CORS off). */
export const defaultCorsOptions: CorsOptions = { allowedOrigins: [] };

function patternError(pattern: string): string | undefined {
  try {
    compileOriginPattern(pattern);
  } catch (err) {
    return (err as Error).message;
  }
  const pinStart = pattern.includes('^') || pattern.includes('//');
  const pinEnd = pattern.includes('$') || pattern.includes(':');
  return pinStart && pinEnd ? undefined : 'regular expression does not pin to start/end of host in the origin header';
}

/** The --cors-allowed-origins flag group. */
export const corsFlags: FlagGroup<'cors'> = {
  repeatable: ['cors-allowed-origins'],
  register(y) {
    y.option('cors-allowed-origins', { type: 'string', describe: helpText });
  },
  validate(p) {
    const allowedOrigins = stringSliceFlag('cors-allowed-origins', p['cors-allowed-origins']);
    const errors: string[] = [];
    for (const pattern of allowedOrigins) {
      if (pattern === '') {
        errors.push(`empty value in --cors-allowed-origins, help: ${helpText}`);
        continue;
      }
      const err = patternError(pattern);
      if (err) errors.push(`--cors-allowed-origins has an invalid regular expression: ${err}, help: ${helpText}`);
    }
    // Several errors read as kube's aggregate: "[a, b]".
    if (errors.length > 0) throw new FlagError(errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    return { cors: { allowedOrigins } };
  },
};
