/**
 * kube's encryption config controller metrics (apiserver_encryption_config_controller_*),
 * registered on the server's registry: reload successes and failures, when each last happened,
 * and the hash of the configuration in effect.
 */
import { createHash } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';

/** The metrics of automatic reload, labelled by the hash of the server's identity. */
export interface EncryptionMetrics {
  reloadSucceeded(configHash: string): void;
  reloadFailed(): void;
  /** Records the configuration in effect (at start and after each reload). */
  configLoaded(configHash: string): void;
}

/** "sha256:<hex>" of s ("" for ""), as kube labels the API server identity. */
function hashLabel(s: string): string {
  return s ? `sha256:${createHash('sha256').update(s).digest('hex')}` : '';
}

/** Registers the metrics on registry (once per server) for the server identity apiServerID. */
export function createEncryptionMetrics(registry: Registry, apiServerID: string): EncryptionMetrics {
  const id = hashLabel(apiServerID);
  const opts = { registers: [registry] };
  const reloads = new Counter({
    name: 'apiserver_encryption_config_controller_automatic_reloads_total',
    help: 'Total number of reload successes and failures of encryption configuration split by apiserver identity.',
    labelNames: ['status', 'apiserver_id_hash'],
    ...opts,
  });
  const lastReload = new Gauge({
    name: 'apiserver_encryption_config_controller_automatic_reload_last_timestamp_seconds',
    help: 'Timestamp of the last successful or failed automatic reload of encryption configuration split by apiserver identity.',
    labelNames: ['status', 'apiserver_id_hash'],
    ...opts,
  });
  const lastConfig = new Gauge({
    name: 'apiserver_encryption_config_controller_last_config_info',
    help: 'Information about the last applied encryption configuration with hash as label, split by apiserver identity.',
    labelNames: ['apiserver_id_hash', 'hash'],
    ...opts,
  });
  const configLoaded = (configHash: string): void => {
    lastConfig.reset();
    lastConfig.set({ apiserver_id_hash: id, hash: configHash }, 1);
  };
  return {
    reloadSucceeded(configHash) {
      reloads.inc({ status: 'success', apiserver_id_hash: id });
      lastReload.set({ status: 'success', apiserver_id_hash: id }, Date.now() / 1000);
      configLoaded(configHash);
    },
    reloadFailed() {
      reloads.inc({ status: 'failure', apiserver_id_hash: id });
      lastReload.set({ status: 'failure', apiserver_id_hash: id }, Date.now() / 1000);
    },
    configLoaded,
  };
}
