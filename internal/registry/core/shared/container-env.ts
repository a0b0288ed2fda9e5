/**
 * A container's environment (kube's ValidateEnv and ValidateEnvFrom): variable names (the relaxed
 * rule, on by default since 1.32), exactly one valueFrom source, downward API field paths, and
 * ConfigMap/Secret references.
 */
import { childPath, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { emptyError, isDNS1123Subdomain, isQualifiedName } from '../../../validation/label-values.js';
import { asObject, objectAt, stringAt, type JsonObject } from './json-value.js';
import { isConfigMapKey } from './config-key.js';

const relaxedEnvVarNameMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/** IsRelaxedEnvVarName. */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError()}`);
  for (const ch of value) {
    const cp = ch.codePointAt(0) as number;
    if (cp > 0x7e || cp < 0x20 || ch === '=') {
      errs.push(relaxedEnvVarNameMsg);
      break;
    }
  }
  return errs;
}

/** The field labels ConvertDownwardAPIFieldLabel knows for v1. */
const downwardAPIFieldLabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs',
]);

/** The field paths env vars may read. */
export const envFieldPaths: readonly string[] = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
].sort();

/** The field paths downwardAPI volume files may read. */
export const volumeFieldPaths: readonly string[] = ['metadata.name', 'metadata.namespace', 'metadata.labels', 'metadata.annotations', 'metadata.uid'].sort();

const resourceFieldPaths: readonly string[] = [
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
].sort();

/** validateObjectFieldSelector: apiVersion v1, a known field path, or a labels/annotations subscript. */
export function validateObjectFieldSelector(fs: JsonObject, allowed: readonly string[], path: string): FieldError[] {
  const apiVersion = stringAt(fs, 'apiVersion');
  const fieldPath = stringAt(fs, 'fieldPath');
  if (!apiVersion) return [required(childPath(path, 'apiVersion'), '')];
  if (!fieldPath) return [required(childPath(path, 'fieldPath'), '')];
  const sub = /^(.+)\['(.*)'\]$/.exec(fieldPath);
  const base = sub ? (sub[1] as string) : fieldPath;
  let convertError: string | undefined;
  if (apiVersion !== 'v1') convertError = `unsupported pod version: ${apiVersion}`;
  else if (!downwardAPIFieldLabels.has(base)) convertError = `field label not supported: ${fieldPath}`;
  if (convertError) return [invalid(childPath(path, 'fieldPath'), fieldPath, `error converting fieldPath: ${convertError}`)];
  if (sub) {
    const key = sub[2] as string;
    if (base === 'metadata.annotations') return isQualifiedName(key.toLowerCase()).map((m) => invalid(path, key.toLowerCase(), m));
    if (base === 'metadata.labels') return isQualifiedName(key).map((m) => invalid(path, key, m));
    return [invalid(path, base, 'does not support subscript')];
  }
  return allowed.includes(base) ? [] : [notSupported(childPath(path, 'fieldPath'), base, allowed)];
}

/** validateContainerResourceFieldSelector (without divisor checks). */
export function validateResourceFieldSelector(fs: JsonObject, path: string, volume: boolean): FieldError[] {
  const resource = stringAt(fs, 'resource');
  if (volume && !stringAt(fs, 'containerName')) return [required(childPath(path, 'containerName'), '')];
  if (!resource) return [required(childPath(path, 'resource'), '')];
  if (resourceFieldPaths.includes(resource) || /^(requests|limits)\.hugepages-/.test(resource)) return [];
  return [notSupported(childPath(path, 'resource'), resource, resourceFieldPaths)];
}

function validateKeySelector(s: JsonObject, path: string): FieldError[] {
  const name = stringAt(s, 'name');
  const errs = isDNS1123Subdomain(name).map((m) => invalid(childPath(path, 'name'), name, m));
  const key = stringAt(s, 'key');
  if (!key) errs.push(required(childPath(path, 'key'), ''));
  else errs.push(...isConfigMapKey(key).map((m) => invalid(childPath(path, 'key'), key, m)));
  return errs;
}

function validateValueFrom(ev: JsonObject, path: string): FieldError[] {
  const from = objectAt(ev, 'valueFrom');
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  const fieldRef = objectAt(from, 'fieldRef');
  if (fieldRef) {
    sources++;
    errs.push(...validateObjectFieldSelector(fieldRef, envFieldPaths, childPath(path, 'fieldRef')));
  }
  const resourceFieldRef = objectAt(from, 'resourceFieldRef');
  if (resourceFieldRef) {
    sources++;
    errs.push(...validateResourceFieldSelector(resourceFieldRef, childPath(path, 'resourceFieldRef'), false));
  }
  for (const key of ['configMapKeyRef', 'secretKeyRef']) {
    const ref = objectAt(from, key);
    if (!ref) continue;
    sources++;
    errs.push(...validateKeySelector(ref, childPath(path, key)));
  }
  if (sources === 0) errs.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (stringAt(ev, 'value')) errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** ValidateEnv: names and value sources of a container's env at path. */
export function validateEnv(env: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  env.forEach((raw, i) => {
    const ev = asObject(raw) ?? {};
    const p = indexPath(path, i);
    const name = stringAt(ev, 'name');
    if (!name) errs.push(required(childPath(p, 'name'), ''));
    else errs.push(...isRelaxedEnvVarName(name).map((m) => invalid(childPath(p, 'name'), name, m)));
    errs.push(...validateValueFrom(ev, childPath(p, 'valueFrom')));
  });
  return errs;
}

/** A generateName-style name check: a trailing dash is allowed, as for a prefix. */
function prefixNameErrors(name: string): string[] {
  return isDNS1123Subdomain(name.endsWith('-') ? `${name.slice(0, -1)}a` : name);
}

/** ValidateEnvFrom: prefixes and exactly one of configMapRef or secretRef per entry. */
export function validateEnvFrom(envFrom: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  envFrom.forEach((raw, i) => {
    const ev = asObject(raw) ?? {};
    const p = indexPath(path, i);
    const prefix = stringAt(ev, 'prefix');
    if (prefix) errs.push(...isRelaxedEnvVarName(prefix).map((m) => invalid(childPath(p, 'prefix'), prefix, m)));
    let sources = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const ref = objectAt(ev, key);
      if (!ref) continue;
      sources++;
      const name = stringAt(ref, 'name');
      if (!name) errs.push(required(childPath(p, key, 'name'), ''));
      else errs.push(...prefixNameErrors(name).map((m) => invalid(childPath(p, key, 'name'), name, m)));
    }
    if (sources === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
