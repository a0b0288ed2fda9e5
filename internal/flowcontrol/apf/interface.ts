/**
 * The flowcontrol.apiserver.k8s.io/v1 shapes priority and fairness reads (FlowSchema and
 * PriorityLevelConfiguration specs and statuses, as stored: v1 field names), and what the
 * configuration side hands the filter.
 */
import type { KubeObject } from '../../../api/meta/types.js';

/** spec.rules[].subjects[]. */
export interface Subject {
  readonly kind: 'User' | 'Group' | 'ServiceAccount' | string;
  readonly user?: { readonly name: string };
  readonly group?: { readonly name: string };
  readonly serviceAccount?: { readonly namespace: string; readonly name: string };
}

/** spec.rules[].resourceRules[]. */
export interface ResourcePolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly clusterScope?: boolean;
  readonly namespaces?: readonly string[];
}

/** spec.rules[].nonResourceRules[]. */
export interface NonResourcePolicyRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** spec.rules[]. */
export interface PolicyRulesWithSubjects {
  readonly subjects: readonly Subject[];
  readonly resourceRules?: readonly ResourcePolicyRule[];
  readonly nonResourceRules?: readonly NonResourcePolicyRule[];
}

/** FlowSchema spec. */
export interface FlowSchemaSpec {
  readonly priorityLevelConfiguration: { readonly name: string };
  readonly matchingPrecedence?: number;
  readonly distinguisherMethod?: { readonly type: 'ByUser' | 'ByNamespace' | string };
  readonly rules?: readonly PolicyRulesWithSubjects[];
}

/** A FlowSchema or PriorityLevelConfiguration condition. */
export interface FlowControlCondition {
  readonly type: string;
  readonly status: string;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
}

/** PriorityLevelConfiguration spec (v1). */
export interface PriorityLevelConfigurationSpec {
  readonly type: 'Exempt' | 'Limited' | string;
  readonly limited?: {
    readonly nominalConcurrencyShares?: number;
    readonly lendablePercent?: number;
    readonly borrowingLimitPercent?: number;
    readonly limitResponse?: {
      readonly type: 'Queue' | 'Reject' | string;
      readonly queuing?: { readonly queues?: number; readonly handSize?: number; readonly queueLengthLimit?: number };
    };
  };
  readonly exempt?: { readonly nominalConcurrencyShares?: number; readonly lendablePercent?: number };
}

/** The FlowSchema object fields read here. */
export type FlowSchemaObject = KubeObject & { spec?: FlowSchemaSpec; status?: { conditions?: FlowControlCondition[] } };

/** The PriorityLevelConfiguration object fields read here. */
export type PriorityLevelObject = KubeObject & { spec?: PriorityLevelConfigurationSpec };
