/**
 * The authorization flags (kube-apiserver's BuiltInAuthorizationOptions): --authorization-mode, an
 * ordered list of authorizers, and each mode's own flags. The authorizers are built by
 * internal/authz/build.ts.
 */
import { FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** The modes --authorization-mode accepts. */
export const authorizationModes = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;

/** One --authorization-mode value. */
export type AuthorizationMode = (typeof authorizationModes)[number];

/** Validated authorization options. */
export interface AuthorizationOptions {
  /** --authorization-mode, in order: the first authorizer with an opinion decides. */
  readonly modes: readonly AuthorizationMode[];
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly authorization?: AuthorizationOptions;
  }
}

/** The defaults (kube-apiserver's: AlwaysAllow). */
export const defaultAuthorizationOptions: AuthorizationOptions = { modes: ['AlwaysAllow'] };

function isMode(v: string): v is AuthorizationMode {
  return (authorizationModes as readonly string[]).includes(v);
}

/** The authorization flag group. */
export const authorizationFlags: FlagGroup<'authorization'> = {
  register(y) {
    y.option('authorization-mode', {
      type: 'string',
      default: 'AlwaysAllow',
      describe: `Ordered list of plug-ins to do authorization on secure port. Defaults to AlwaysAllow if --authorization-config is not used. Comma-delimited list of: ${authorizationModes.join(',')}.`,
    });
  },
  validate(p) {
    const modes = String(p['authorization-mode'] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m.length > 0);
    if (modes.length === 0) throw new FlagError('at least one authorization-mode must be passed');
    const seen = new Set<string>();
    for (const m of modes) {
      if (!isMode(m)) throw new FlagError(`authorization-mode "${m}" is not a valid mode`);
      if (seen.has(m)) throw new FlagError(`authorization-mode "${m}" has mode specified more than once`);
      seen.add(m);
    }
    return { authorization: { modes: modes as AuthorizationMode[] } };
  },
};
