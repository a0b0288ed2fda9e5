/**
 * --strict-transport-security-directives (kube's ServerRunOptions): the directives the HSTS filter
 * (internal/filters/hsts.ts) sends on every response. Validated as kube does: each one
 * "max-age=<anything>", "includeSubDomains" or "preload", none empty.
 */
import { FlagError, stringSliceFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated HSTS options. */
export interface HstsOptions {
  /** The directives in flag order; empty: no header. */
  readonly directives: readonly string[];
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly hsts?: HstsOptions;
  }
}

/** The defaults (no HSTS header). */
export const defaultHstsOptions: HstsOptions = { directives: [] };

const invalid =
  '--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload. see https://tools.ietf.org/html/rfc6797#section-6.1 for more information';

/** The --strict-transport-security-directives flag group. */
export const hstsFlags: FlagGroup<'hsts'> = {
  repeatable: ['strict-transport-security-directives'],
  register(y) {
    y.option('strict-transport-security-directives', {
      type: 'string',
      describe: "List of directives for HSTS, comma separated. If this list is empty, then HSTS directives will not be added. Example: 'max-age=31536000,includeSubDomains,preload'",
    });
  },
  validate(p) {
    const directives = stringSliceFlag('strict-transport-security-directives', p['strict-transport-security-directives']);
    const errors: string[] = [];
    for (const d of directives) {
      if (d.trim() === '') {
        errors.push('empty value in strict-transport-security-directives');
        continue;
      }
      if (d === 'includeSubDomains' || d === 'preload') continue;
      const parts = d.split('=');
      if (parts.length !== 2 || parts[0] !== 'max-age') errors.push(invalid);
    }
    if (errors.length > 0) throw new FlagError(errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    return { hsts: { directives } };
  },
};
