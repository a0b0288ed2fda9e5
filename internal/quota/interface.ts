/**
 * Quota evaluators (kube's k8s.io/apiserver/pkg/quota/v1 Evaluator): one per group/resource, each
 * knowing which quota resource names it tracks, which scopes an object matches, and how much of
 * each an object uses. Admission and the quota controller share them. Evaluators are stateless.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { AdmissionAttributes } from '../admission/interface.js';
import type { ResourceList } from './resource-list.js';

/** One scopeSelector expression (core/v1 ScopedResourceSelectorRequirement). */
export interface ScopeSelectorRequirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** What a ResourceQuota holds that evaluators read. */
export interface QuotaObject extends KubeObject {
  spec?: {
    hard?: Record<string, string>;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: ScopeSelectorRequirement[] };
  };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

/** Measures quota usage of one group/resource. */
export interface QuotaEvaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether a request (after the plugin's own filters) can change usage of this resource. */
  handles(attrs: AdmissionAttributes): boolean;
  /** The names of input this evaluator tracks. */
  matchingResources(input: readonly string[]): string[];
  /** Whether obj is in the given scope. */
  matchesScope(selector: ScopeSelectorRequirement, obj: KubeObject): boolean;
  /** Whether this evaluator has scopes at all (pods do; the others match no scoped quota). */
  readonly scoped: boolean;
  /** The message kube gives when obj lacks a required resource, else undefined. */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
  /** What obj uses. */
  usage(obj: KubeObject): ResourceList;
}
