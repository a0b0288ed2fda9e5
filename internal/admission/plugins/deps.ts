/**
 * What an admission plugin is built from: the server's stores, shared informers, the authorizer,
 * options, logging and metrics, and the plugin's own configuration from
 * --admission-control-config-file. Each plugin factory takes these and returns the plugin.
 */
import type { Authorizer } from '../../authz/interface.js';
import type { SharedInformers, StorageLookup } from '../../controllers/shared-informers.js';
import type { Logger } from '../../observability/logging.js';
import type { ServerMetrics } from '../../observability/metrics.js';
import type { ServerOptions } from '../../server/options/flags.js';
import type { AdmissionPlugin, AdmissionVersioning } from '../interface.js';

/** Everything a plugin factory may use. */
export interface AdmissionPluginDeps {
  /** The store of a served resource (reads go through the watch cache like any client's). */
  readonly storageOf: StorageLookup;
  /** Informers shared by every plugin and in-server controller (started on first use). */
  readonly informers: SharedInformers;
  /** The server's authorizer (the union the authorization filter asks), once built. */
  readonly authorizer: () => Authorizer;
  readonly options: ServerOptions;
  readonly log: Logger;
  readonly metrics: ServerMetrics;
  /**
   * The versions a (sub)resource is served in, preferred first (for matchPolicy Equivalent: the
   * same resource in another version). Absent in tests that serve nothing.
   */
  readonly versionsOf?: (group: string, resource: string, subresource: string) => ReadonlyArray<{ readonly version: string; readonly versioning: AdmissionVersioning }>;
  /** Aborted when the server stops: plugins end their timers, connections and watches. */
  readonly shutdown: AbortSignal;
}

/**
 * Builds one plugin. config is the plugin's configuration object from the AdmissionConfiguration
 * (inline `configuration`, or the parsed file at `path`), undefined when there is none. Throws (an
 * Error with kube's message) when the configuration is invalid: the server then refuses to start.
 */
export type AdmissionPluginFactory = (deps: AdmissionPluginDeps, config: unknown) => AdmissionPlugin | Promise<AdmissionPlugin>;

/** Factories by plugin name (kube's names). */
export type AdmissionPluginFactories = Readonly<Record<string, AdmissionPluginFactory>>;
