/**
 * Pod Security levels, policy versions and the namespace labels that choose them
 * (k8s.io/pod-security-admission/api): a label that does not parse still yields a policy, the
 * most restrictive for enforce and the most permissive for audit and warn, plus its field error.
 * A namespace that enforces a level stricter than its warn level warns at the enforce level too.
 */
import { invalid, keyPath, type FieldError } from '../../../validation/field-error.js';

/** A Pod Security Standards level. */
export type Level = 'privileged' | 'baseline' | 'restricted';

/** A policy version: v1.<minor>, or latest (Infinity), which is newer than every version. */
export type Version = number;

/** The version "latest". */
export const latestVersion: Version = Number.POSITIVE_INFINITY;

/** A level at a version, e.g. restricted:v1.25. */
export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

/** The policy of a namespace: one level and version per mode. */
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

const labelPrefix = 'pod-security.kubernetes.io/';
/** The namespace labels and the audit annotation prefix. */
export const enforceLevelLabel = `${labelPrefix}enforce`;
export const enforceVersionLabel = `${labelPrefix}enforce-version`;
export const auditLevelLabel = `${labelPrefix}audit`;
export const auditVersionLabel = `${labelPrefix}audit-version`;
export const warnLevelLabel = `${labelPrefix}warn`;
export const warnVersionLabel = `${labelPrefix}warn-version`;
/** Audit annotations are this prefix plus enforce-policy, audit-violations, exempt or error. */
export const auditAnnotationPrefix = labelPrefix;

/** "v1.25" or "latest". */
export function versionString(v: Version): string {
  return v === latestVersion ? 'latest' : `v1.${v}`;
}

/** "restricted:latest". */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

/** Whether two level-versions name the same policy. */
export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version === b.version;
}

/** Equal levels, and equal versions unless privileged (which has no versions). */
export function equivalentLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && (a.level === 'privileged' || a.version === b.version);
}

/** Whether every mode of the policy is privileged. */
export function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';
}

/** The level named by s; restricted and kube's message when s names none. */
export function parseLevel(s: string): { level: Level; error?: string } {
  if (s === 'privileged' || s === 'baseline' || s === 'restricted') return { level: s };
  return { level: 'restricted', error: 'must be one of privileged, baseline, restricted' };
}

const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** The version named by s ("latest" or "v1.x"); latest and kube's message when it names none. */
export function parseVersion(s: string): { version: Version; error?: string } {
  if (s === 'latest') return { version: latestVersion };
  const m = versionPattern.exec(s);
  const minor = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(minor)) return { version: latestVersion, error: 'must be "latest" or "v1.x"' };
  return { version: minor };
}

/** -1, 0 or 1 as level a is less strict than, as strict as, or stricter than b. */
export function compareLevels(a: Level, b: Level): number {
  if (a === b) return 0;
  if (a === 'privileged') return -1;
  if (a === 'restricted') return 1;
  return b === 'privileged' ? 1 : -1;
}

const labelsPath = 'metadata.labels';

/**
 * The policy a namespace's labels select over defaults (kube's PolicyToEvaluate). Always returns
 * a usable policy; errors lists the labels that did not parse (invalid enforce levels evaluate as
 * restricted, invalid audit and warn levels as privileged, invalid versions as latest).
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!labels) return { policy: defaults, errors };
  let { enforce, audit, warn } = defaults;
  const level = (label: string, failOpen: boolean, current: LevelVersion): LevelVersion => {
    const value = labels[label];
    if (value === undefined) return current;
    const parsed = parseLevel(value);
    if (parsed.error) errors.push(invalid(keyPath(labelsPath, label), value, parsed.error));
    return { level: parsed.error && failOpen ? 'privileged' : parsed.level, version: current.version };
  };
  const version = (label: string, current: LevelVersion): LevelVersion => {
    const value = labels[label];
    if (value === undefined) return current;
    const parsed = parseVersion(value);
    if (parsed.error) errors.push(invalid(keyPath(labelsPath, label), value, parsed.error));
    return { level: current.level, version: parsed.version };
  };
  enforce = version(enforceVersionLabel, level(enforceLevelLabel, false, enforce));
  audit = version(auditVersionLabel, level(auditLevelLabel, true, audit));
  warn = version(warnVersionLabel, level(warnLevelLabel, true, warn));
  // An enforce level set (validly) by label and stricter than warn also warns, unless warn is labelled.
  const enforceLabel = labels[enforceLevelLabel];
  if (labels[warnLevelLabel] === undefined && enforceLabel !== undefined && !parseLevel(enforceLabel).error && compareLevels(enforce.level, warn.level) > 0) {
    warn = { level: enforce.level, version: labels[warnVersionLabel] === undefined ? enforce.version : warn.version };
  }
  return { policy: { enforce, audit, warn }, errors };
}
