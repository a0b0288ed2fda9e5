/**
 * The token webhook flags (kube-apiserver's WebHookAuthenticationOptions): a remote service, named
 * by a kubeconfig file, that is sent a TokenReview for every bearer token no local method knows.
 * The authenticator is internal/authn/webhook-token.
 */
import { durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** The TokenReview versions the webhook may speak. */
export const tokenWebhookVersions = ['v1', 'v1beta1'] as const;

/** One TokenReview version. */
export type TokenWebhookVersion = (typeof tokenWebhookVersions)[number];

/** Validated token webhook options; present only when a config file is given. */
export interface AuthenticationWebhookOptions {
  /** --authentication-token-webhook-config-file: the webhook's kubeconfig. */
  readonly configFile: string;
  /** --authentication-token-webhook-version. */
  readonly version: TokenWebhookVersion;
  /** --authentication-token-webhook-cache-ttl in ms; 0 or less: answers are not cached. */
  readonly cacheTTLMs: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly authenticationWebhook?: AuthenticationWebhookOptions;
  }
}

function isVersion(v: string): v is TokenWebhookVersion {
  return (tokenWebhookVersions as readonly string[]).includes(v);
}

/** The token webhook flag group. */
export const authenticationWebhookFlags: FlagGroup<'authenticationWebhook'> = {
  register(y) {
    y.option('authentication-token-webhook-config-file', {
      type: 'string',
      describe:
        'File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.',
    });
    y.option('authentication-token-webhook-version', {
      type: 'string',
      default: 'v1beta1',
      describe: 'The API version of the authentication.k8s.io TokenReview to send to and expect from the webhook.',
    });
    y.option('authentication-token-webhook-cache-ttl', {
      type: 'string',
      default: '2m0s',
      describe: 'The duration to cache responses from the webhook token authenticator.',
    });
  },
  validate(p) {
    const version = String(p['authentication-token-webhook-version']);
    if (!isVersion(version)) {
      throw new FlagError(`unsupported authentication webhook version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`);
    }
    const cacheTTLMs = durationFlag('authentication-token-webhook-cache-ttl', p['authentication-token-webhook-cache-ttl']);
    const configFile = p['authentication-token-webhook-config-file'];
    if (configFile === undefined || configFile === '') return {};
    return { authenticationWebhook: { configFile: String(configFile), version, cacheTTLMs } };
  },
};
