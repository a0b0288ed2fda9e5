/**
 * Types of the ResourceQuota admission plugin: its configuration (ResourceQuotaConfiguration) and
 * the working copy of a quota it charges.
 */
import type { QuotaObject, ScopeSelectorRequirement } from '../../../quota/interface.js';
import type { Quantity } from '../../../validation/quantity.js';

/** A resource whose consumption needs a covering quota (apiserver.config.k8s.io LimitedResource). */
export interface LimitedResource {
  readonly apiGroup: string;
  readonly resource: string;
  readonly matchContains: readonly string[];
  readonly matchScopes: readonly ScopeSelectorRequirement[];
}

/** The plugin's configuration. */
export interface ResourceQuotaConfiguration {
  readonly limitedResources: readonly LimitedResource[];
}

/** A quota as one evaluation sees it: the stored object, its status.hard, and its running usage. */
export interface WorkingQuota {
  readonly object: QuotaObject;
  readonly hard: ReadonlyMap<string, Quantity>;
  readonly used: ReadonlyMap<string, Quantity>;
}
