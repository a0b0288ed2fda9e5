/**
 * The plugin's configuration, PodSecurityConfiguration of pod-security.admission.config.k8s.io
 * (v1, v1beta1, v1alpha1) as given in --admission-control-config-file: default levels and versions
 * for namespaces without labels, and exempt usernames, runtime classes and namespaces. Fields left
 * empty default to privileged and latest; unknown fields and invalid values refuse the start.
 */
import { isDNS1123Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import { duplicate, fieldErrorsMessage, indexPath, invalid, required, type FieldError } from '../../../validation/field-error.js';
import { parseLevel, parseVersion, type Policy } from './api.js';

/** The validated configuration. */
export interface PodSecurityConfig {
  readonly defaults: Policy;
  readonly exemptUsernames: ReadonlySet<string>;
  readonly exemptRuntimeClasses: ReadonlySet<string>;
  readonly exemptNamespaces: ReadonlySet<string>;
}

const group = 'pod-security.admission.config.k8s.io';
const versions = new Set([`${group}/v1`, `${group}/v1beta1`, `${group}/v1alpha1`]);
const defaultsFields = ['enforce', 'enforce-version', 'audit', 'audit-version', 'warn', 'warn-version'];
const exemptionsFields = ['usernames', 'runtimeClasses', 'namespaces'];

function record(v: unknown, path: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`${path}: expected an object`);
  return v as Record<string, unknown>;
}

function strictFields(obj: Record<string, unknown>, known: readonly string[], prefix: string): void {
  for (const k of Object.keys(obj)) if (!known.includes(k)) throw new Error(`strict decoding error: unknown field "${prefix}${k}"`);
}

function str(obj: Record<string, unknown>, key: string, path: string): string {
  const v = obj[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`${path}.${key}: expected a string`);
  return v;
}

function strings(obj: Record<string, unknown>, key: string, path: string): string[] {
  const v = obj[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new Error(`${path}.${key}: expected a list of strings`);
  return v as string[];
}

function uniqueList(values: readonly string[], path: string, check: (s: string) => string[] | undefined, errs: FieldError[]): Set<string> {
  const out = new Set<string>();
  values.forEach((v, i) => {
    const p = indexPath(path, i);
    const problems = check(v);
    if (problems === undefined) errs.push(required(p, ''));
    else if (problems.length > 0) errs.push(invalid(p, v, problems.join(', ')));
    else if (out.has(v)) errs.push(duplicate(p, v));
    else out.add(v);
  });
  return out;
}

/** Reads and validates the configuration object; undefined gives the defaults. Throws kube's messages. */
export function loadPodSecurityConfig(config: unknown): PodSecurityConfig {
  const doc = record(config, 'configuration');
  if (config !== undefined && config !== null) {
    const apiVersion = String(doc.apiVersion ?? '');
    if (doc.kind !== 'PodSecurityConfiguration' || !versions.has(apiVersion)) {
      throw new Error(`expected PodSecurityConfiguration of ${group}/v1, got ${apiVersion || '(no apiVersion)'}, Kind=${String(doc.kind ?? '')}`);
    }
    strictFields(doc, ['apiVersion', 'kind', 'defaults', 'exemptions'], '');
  }
  const d = record(doc.defaults, 'defaults');
  strictFields(d, defaultsFields, 'defaults.');
  const x = record(doc.exemptions, 'exemptions');
  strictFields(x, exemptionsFields, 'exemptions.');
  const errs: FieldError[] = [];
  const level = (key: string) => {
    const value = str(d, key, 'defaults') || 'privileged';
    const p = parseLevel(value);
    if (p.error) errs.push(invalid(`defaults.${key}`, value, p.error));
    return p.level;
  };
  const version = (key: string) => {
    const value = str(d, key, 'defaults') || 'latest';
    const p = parseVersion(value);
    if (p.error) errs.push(invalid(`defaults.${key}`, value, p.error));
    return p.version;
  };
  const enforce = { level: level('enforce'), version: version('enforce-version') };
  const warn = { level: level('warn'), version: version('warn-version') };
  const audit = { level: level('audit'), version: version('audit-version') };
  const exemptNamespaces = uniqueList(strings(x, 'namespaces', 'exemptions'), 'exemptions.namespaces', isDNS1123Label, errs);
  const exemptRuntimeClasses = uniqueList(strings(x, 'runtimeClasses', 'exemptions'), 'exemptions.runtimeClasses', isDNS1123Subdomain, errs);
  const exemptUsernames = uniqueList(strings(x, 'usernames', 'exemptions'), 'exemptions.usernames', (s) => (s === '' ? undefined : []), errs);
  if (errs.length > 0) throw new Error(`PodSecurity invalid: ${fieldErrorsMessage(errs)}`);
  return { defaults: { enforce, audit, warn }, exemptUsernames, exemptRuntimeClasses, exemptNamespaces };
}
