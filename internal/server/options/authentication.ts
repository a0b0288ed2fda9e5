/**
 * The authentication flags (kube-apiserver's BuiltInAuthenticationOptions): which authenticators
 * run and how. Each method's flags are validated here into AuthenticationOptions; the
 * authenticators themselves are built by internal/authn/build.ts.
 */
import { boolFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated authentication options. */
export interface AuthenticationOptions {
  /** --anonymous-auth: requests no authenticator claims are system:anonymous (else 401). */
  readonly anonymous: boolean;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly authentication?: AuthenticationOptions;
  }
}

/** The defaults of every authentication flag. */
export const defaultAuthenticationOptions: AuthenticationOptions = { anonymous: true };

/** The authentication flag group. */
export const authenticationFlags: FlagGroup<'authentication'> = {
  register(y) {
    y.option('anonymous-auth', {
      type: 'string',
      defaultDescription: 'true',
      describe:
        'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
    });
  },
  validate(p) {
    return { authentication: { anonymous: boolFlag('anonymous-auth', p['anonymous-auth'], true) } };
  },
};
