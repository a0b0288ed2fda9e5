/**
 * The encryption at rest flags (kube-apiserver's EtcdOptions): --encryption-provider-config names
 * an apiserver.config.k8s.io/v1 EncryptionConfiguration file, read and validated when the server
 * starts (internal/server/encryption); --encryption-provider-config-automatic-reload reloads it
 * when it changes.
 */
import type { KmsProbeTimings } from '../../storage/value/kmsv2/probe.js';
import { boolFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated encryption options. */
export interface EncryptionOptions {
  /** --encryption-provider-config; undefined leaves every value unencrypted. */
  readonly providerConfigFile?: string;
  /** --encryption-provider-config-automatic-reload. */
  readonly automaticReload: boolean;
  /**
   * Not a flag: shorter KMS probe and reload timings for tests (plugin outages and reloads
   * within seconds). Production uses kube's values.
   */
  readonly tuning?: { readonly kms?: KmsProbeTimings; readonly reloadPollIntervalMs?: number; readonly minHealthWaitMs?: number };
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly encryption?: EncryptionOptions;
  }
}

/** The defaults: nothing is encrypted. */
export const defaultEncryptionOptions: EncryptionOptions = { automaticReload: false };

/** The encryption flag group. */
export const encryptionFlags: FlagGroup<'encryption'> = {
  register(y) {
    y.option('encryption-provider-config', {
      type: 'string',
      describe: 'The file containing configuration for encryption providers to be used for storing secrets in etcd',
    });
    // No yargs default: yargs would keep it for a bare --flag, which Go reads as true.
    y.option('encryption-provider-config-automatic-reload', {
      type: 'string',
      describe:
        'Determines if the file set by --encryption-provider-config should be automatically reloaded if the disk contents change. Setting this to true disables the ability to uniquely identify distinct KMS plugins via the API server healthz endpoints. [default: false]',
    });
  },
  validate(p) {
    const file = p['encryption-provider-config'];
    const path = typeof file === 'string' && file !== '' ? file : undefined;
    const reloadValue = p['encryption-provider-config-automatic-reload'];
    const automaticReload = boolFlag('encryption-provider-config-automatic-reload', reloadValue);
    if (automaticReload && path === undefined) throw new FlagError('--encryption-provider-config-automatic-reload must be set with --encryption-provider-config');
    return { encryption: { ...(path !== undefined ? { providerConfigFile: path } : {}), automaticReload } };
  },
};
