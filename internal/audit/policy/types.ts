/**
 * audit.k8s.io/v1 Policy as --audit-policy-file holds it: rules tried in order, the first that
 * matches a request deciding its level; stages every rule omits; whether managedFields are left
 * out of recorded objects by default.
 */
import type { AuditLevel, AuditStage } from '../interface.js';

/** audit.k8s.io/v1 GroupResources: resources of one API group ("" is the core group). */
export interface GroupResources {
  readonly group: string;
  /** Resources ("pods"), subresources ("pods/log", "*\/scale", "pods/*") or "*"; empty: every resource of the group. */
  readonly resources: readonly string[];
  /** Object names; empty: any name. */
  readonly resourceNames: readonly string[];
}

/** audit.k8s.io/v1 PolicyRule; an empty list matches anything. */
export interface PolicyRule {
  /** The level as written (validated before use). */
  readonly level: string;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  /** "" matches cluster-scoped resources and non-namespaced requests. */
  readonly namespaces: readonly string[];
  /** Exact paths, "*" or a prefix ending in "*". */
  readonly nonResourceURLs: readonly string[];
  /** The stages as written (validated before use). */
  readonly omitStages: readonly string[];
  /** Absent: the policy's omitManagedFields. */
  readonly omitManagedFields?: boolean;
}

/** audit.k8s.io/v1 Policy. */
export interface AuditPolicy {
  readonly rules: readonly PolicyRule[];
  /** Stages omitted for every rule (and for requests no rule matches). */
  readonly omitStages: readonly string[];
  readonly omitManagedFields: boolean;
}

/** The levels, least detail first (kube's Level.Less order). */
export const auditLevels: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/** The stages, in the order kube lists them. */
export const auditStages: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];
