/**
 * The authorization flags (kube-apiserver's BuiltInAuthorizationOptions): --authorization-mode, an
 * ordered list of authorizers, and each mode's own flags (--authorization-policy-file for ABAC,
 * --authorization-webhook-* for Webhook). Validated as kube validates them: every problem is
 * reported, one message alone or several as kube's aggregate "[a, b]". The authorizers are built by
 * internal/authz/build.ts.
 */
import { formatGoDuration } from './duration.js';
import { durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** The modes --authorization-mode accepts. */
export const authorizationModes = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;

/** One --authorization-mode value. */
export type AuthorizationMode = (typeof authorizationModes)[number];

/** The SubjectAccessReview versions --authorization-webhook-version accepts. */
export const webhookVersions = ['v1', 'v1beta1'] as const;

/** One --authorization-webhook-version value. */
export type WebhookVersion = (typeof webhookVersions)[number];

/** Validated authorization options. */
export interface AuthorizationOptions {
  /** --authorization-mode, in order: the first authorizer with an opinion decides. */
  readonly modes: readonly AuthorizationMode[];
  /** --authorization-policy-file: ABAC's policy, one JSON object per line (set exactly when ABAC is a mode). */
  readonly policyFile?: string;
  /** --authorization-webhook-config-file: the webhook's kubeconfig (set exactly when Webhook is a mode). */
  readonly webhookConfigFile?: string;
  /** --authorization-webhook-version: the SubjectAccessReview version sent to the webhook. */
  readonly webhookVersion: WebhookVersion;
  /** --authorization-webhook-cache-authorized-ttl in ms; 0 caches no allowed answer. */
  readonly webhookCacheAuthorizedTTLMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl in ms; 0 caches no other answer. */
  readonly webhookCacheUnauthorizedTTLMs: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly authorization?: AuthorizationOptions;
  }
}

/** The defaults (kube-apiserver's: AlwaysAllow; webhook v1beta1, 5m allowed and 30s denied cache). */
export const defaultAuthorizationOptions: AuthorizationOptions = {
  modes: ['AlwaysAllow'],
  webhookVersion: 'v1beta1',
  webhookCacheAuthorizedTTLMs: 5 * 60_000,
  webhookCacheUnauthorizedTTLMs: 30_000,
};

function isMode(v: string): v is AuthorizationMode {
  return (authorizationModes as readonly string[]).includes(v);
}

function isWebhookVersion(v: string): v is WebhookVersion {
  return (webhookVersions as readonly string[]).includes(v);
}

/** kube's utilerrors.NewAggregate(...).Error(): one message alone, several as "[a, b]" (duplicates once). */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] as string) : `[${unique.join(', ')}]`;
}

function optionalString(v: unknown): string | undefined {
  return v === undefined || v === null || String(v) === '' ? undefined : String(v);
}

function ttlFlag(name: string, value: unknown, errors: string[]): number {
  const ms = durationFlag(name, value);
  if (ms < 0) errors.push(`--${name} ${formatGoDuration(ms)} must not be negative`);
  return ms;
}

/** The authorization flag group. */
export const authorizationFlags: FlagGroup<'authorization'> = {
  register(y) {
    y.option('authorization-mode', {
      type: 'string',
      default: 'AlwaysAllow',
      describe: `Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: ${authorizationModes.join(',')}.`,
    });
    y.option('authorization-policy-file', {
      type: 'string',
      describe: 'File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.',
    });
    y.option('authorization-webhook-config-file', {
      type: 'string',
      describe:
        "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.",
    });
    y.option('authorization-webhook-version', {
      type: 'string',
      default: 'v1beta1',
      describe: 'The API version of the authorization.k8s.io SubjectAccessReview to send to and expect from the webhook.',
    });
    y.option('authorization-webhook-cache-authorized-ttl', {
      type: 'string',
      default: '5m0s',
      describe: "The duration to cache 'authorized' responses from the webhook authorizer.",
    });
    y.option('authorization-webhook-cache-unauthorized-ttl', {
      type: 'string',
      default: '30s',
      describe: "The duration to cache 'unauthorized' responses from the webhook authorizer.",
    });
  },
  validate(p) {
    // Like pflag's StringSlice: the value is split on commas.
    const modes = String(p['authorization-mode'] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter((m) => m.length > 0);
    const policyFile = optionalString(p['authorization-policy-file']);
    const webhookConfigFile = optionalString(p['authorization-webhook-config-file']);
    const errors: string[] = [];
    if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
    for (const m of modes) {
      if (!isMode(m)) errors.push(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
      if (m === 'ABAC' && !policyFile) errors.push("authorization-mode ABAC's authorization policy file not passed");
      if (m === 'Webhook' && !webhookConfigFile) errors.push("authorization-mode Webhook's authorization config file not passed");
    }
    if (policyFile && !modes.includes('ABAC')) errors.push('cannot specify --authorization-policy-file without mode ABAC');
    if (webhookConfigFile && !modes.includes('Webhook')) errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
    if (new Set(modes).size !== modes.length) {
      errors.push(`authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
    }
    const version = String(p['authorization-webhook-version'] ?? 'v1beta1');
    if (!isWebhookVersion(version)) {
      errors.push(`unsupported webhook authorizer version ${JSON.stringify(version)}, supported versions are ${webhookVersions.map((v) => JSON.stringify(v)).join(', ')}`);
    }
    const authorizedTTL = ttlFlag('authorization-webhook-cache-authorized-ttl', p['authorization-webhook-cache-authorized-ttl'] ?? '5m0s', errors);
    const unauthorizedTTL = ttlFlag('authorization-webhook-cache-unauthorized-ttl', p['authorization-webhook-cache-unauthorized-ttl'] ?? '30s', errors);
    if (errors.length > 0) throw new FlagError(aggregateMessage(errors));
    return {
      authorization: {
        modes: modes as AuthorizationMode[],
        ...(policyFile ? { policyFile } : {}),
        ...(webhookConfigFile ? { webhookConfigFile } : {}),
        webhookVersion: version as WebhookVersion,
        webhookCacheAuthorizedTTLMs: authorizedTTL,
        webhookCacheUnauthorizedTTLMs: unauthorizedTTL,
      },
    };
  },
};
