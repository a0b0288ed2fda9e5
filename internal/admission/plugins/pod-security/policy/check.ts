/**
 * What a Pod Security check is: an ID, the level it belongs to, and one implementation per policy
 * version it changed in; and what a check answers (kube's policy.Check and CheckResult).
 */
import type { Level } from '../api.js';
import type { PodMetadata, PodSpec } from '../pod-types.js';

/** The answer of one check for one pod. reason is set when allowed is false; detail may be ''. */
export interface CheckResult {
  readonly allowed: boolean;
  readonly reason?: string;
  readonly detail?: string;
}

/** The shared answer of a check that found nothing wrong. */
export const allowed: CheckResult = Object.freeze({ allowed: true });

/** A check's verdict on a pod's metadata and spec. Must not change either. */
export type CheckPodFn = (meta: PodMetadata, spec: PodSpec) => CheckResult;

/** One revision of a check, in force from minimumMinor (v1.<minor>) until the next revision. */
export interface VersionedCheck {
  readonly minimumMinor: number;
  readonly checkPod: CheckPodFn;
  /** Baseline check IDs this restricted revision replaces at the restricted level. */
  readonly overrides?: readonly string[];
}

/** A check of the Pod Security Standards. */
export interface Check {
  readonly id: string;
  readonly level: Exclude<Level, 'privileged'>;
  /** Revisions in strictly increasing minimumMinor order. */
  readonly versions: readonly VersionedCheck[];
}

/** The failing checks of an evaluation, in evaluation order. */
export interface AggregateCheckResult {
  readonly allowed: boolean;
  readonly reasons: readonly string[];
  readonly details: readonly string[];
}

/** Folds check results into the failures (kube's AggregateCheckResults). */
export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    reasons.push(r.reason || 'unknown forbidden reason');
    details.push(r.detail ?? '');
  }
  return { allowed: reasons.length === 0, reasons, details };
}

/** `host ports, privileged`: the reasons alone (used for namespace warnings). */
export function forbiddenReason(r: AggregateCheckResult): string {
  return r.reasons.join(', ');
}

/** `hostPort (container "a" uses hostPort 80), privileged (...)`: reasons with their details. */
export function forbiddenDetail(r: AggregateCheckResult): string {
  return r.reasons.map((reason, i) => (r.details[i] ? `${reason} (${r.details[i]})` : reason)).join(', ');
}
