/**
 * kube's ValidateEncryptionConfiguration: every rule and message of
 * k8s.io/apiserver/pkg/apis/apiserver/validation (resource names and overlaps, one provider per
 * element, key counts, base64 and sizes, KMS name, endpoint, timeout, cachesize and apiVersion).
 * Errors print as kube's field errors ("resources[0].providers[0].aescbc.keys[0].secret: Invalid
 * value: \"REDACTED\": secrets must be base64 encoded").
 */
import { formatGoDuration } from '../options/duration.js';
import type { EncryptionConfiguration, KeysConfiguration, KmsConfiguration, ProviderConfiguration } from './types.js';

const aesKeySizes = [16, 24, 32];
const secretboxKeySizes = [32];

/** A group and resource as kube's schema.ParseGroupResource reads "resource.group". */
export interface ParsedGroupResource {
  readonly group: string;
  readonly resource: string;
}

/** kube's schema.ParseGroupResource: everything after the first dot is the group. */
export function parseGroupResource(s: string): ParsedGroupResource {
  const i = s.indexOf('.');
  return i >= 0 ? { group: s.slice(i + 1), resource: s.slice(0, i) } : { group: '', resource: s };
}

/** A Go-quoted list of strings as %#v prints a []string. */
function goStrings(list: readonly string[]): string {
  return `[]string{${list.map((s) => JSON.stringify(s)).join(', ')}}`;
}

function required(path: string, detail: string): string {
  return `${path}: Required value: ${detail}`;
}

function invalid(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${value}: ${detail}`;
}

function providerValue(p: ProviderConfiguration): string {
  const f = (set: unknown, type: string): string => `(*apiserver.${type})(${set === undefined ? 'nil' : '...'})`;
  return `apiserver.ProviderConfiguration{AESGCM:${f(p.aesgcm, 'AESConfiguration')}, AESCBC:${f(p.aescbc, 'AESConfiguration')}, Secretbox:${f(p.secretbox, 'SecretboxConfiguration')}, Identity:${f(p.identity, 'IdentityConfiguration')}, KMS:${f(p.kms, 'KMSConfiguration')}}`;
}

/** Every validation error of c, in kube's order and words; empty when c is valid. reload is --encryption-provider-config-automatic-reload. */
export function validateEncryptionConfiguration(c: EncryptionConfiguration, reload: boolean): string[] {
  const errs: string[] = [];
  if (c.resources.length === 0) return [required('resources', 'at least one resources is required')];
  const kmsNames = new Set<string>();
  c.resources.forEach((conf, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    if (conf.resources.length === 0) errs.push(required(r, `at least one ${r} is required`));
    errs.push(...validateResourceOverlap(conf.resources, r), ...validateResourceNames(conf.resources, r));
    if (conf.providers.length === 0) errs.push(required(p, `at least one ${p} is required`));
    conf.providers.forEach((provider, j) => {
      const path = `${p}[${j}]`;
      errs.push(...validateSingleProvider(provider, path));
      if (provider.kms) {
        errs.push(...validateKms(provider.kms, `${path}.kms`, kmsNames, reload));
        kmsNames.add(provider.kms.name);
      } else if (provider.aesgcm) errs.push(...validateKeys(provider.aesgcm, `${path}.aesgcm.keys`, aesKeySizes));
      else if (provider.aescbc) errs.push(...validateKeys(provider.aescbc, `${path}.aescbc.keys`, aesKeySizes));
      else if (provider.secretbox) errs.push(...validateKeys(provider.secretbox, `${path}.secretbox.keys`, secretboxKeySizes));
    });
  });
  return errs;
}

function validateResourceOverlap(resources: readonly string[], path: string): string[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let overlap = false;
  let duplicate = false;
  grs.forEach((r1, i) => {
    grs.forEach((r2, j) => {
      if (i === j) return;
      if (r1.group === r2.group && r1.resource === r2.resource && !duplicate) {
        duplicate = true;
        return;
      }
      if (overlap) return;
      if (r1.group === '*' && r1.resource === '*') {
        overlap = true;
        return;
      }
      if (r1.group !== r2.group) return;
      if (r1.resource === '*' || r2.resource === '*') overlap = true;
    });
  });
  const errs: string[] = [];
  if (duplicate) errs.push(invalid(path, goStrings(resources), 'the same resource cannot be specified multiple times'));
  if (overlap) errs.push(invalid(path, goStrings(resources), "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"));
  return errs;
}

function validateResourceNames(resources: readonly string[], path: string): string[] {
  const errs: string[] = [];
  resources.forEach((res, j) => {
    const at = `${path}[${j}]`;
    const q = JSON.stringify(res);
    if (res.toLowerCase() !== res) errs.push(invalid(at, q, 'resource name should not contain capital letters'));
    else if (res === '*') errs.push(invalid(at, q, "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"));
    else if (res === 'apiserveripinfo' || res === 'serviceipallocations' || res === 'servicenodeportallocations') {
      errs.push(invalid(at, q, 'resources which do not have REST API/s cannot be encrypted'));
    } else {
      const gr = parseGroupResource(res);
      if (gr.group === 'events.k8s.io') errs.push(invalid(at, q, "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"));
      else if (gr.group === 'extensions') errs.push(invalid(at, q, "'extensions' group has been removed and cannot be used for encryption"));
      else if (gr.group === '*' && gr.resource !== '*') errs.push(invalid(at, q, 'encrypting the same resource across groups is not supported'));
    }
  });
  return errs;
}

function validateSingleProvider(p: ProviderConfiguration, path: string): string[] {
  const found = [p.kms, p.aesgcm, p.aescbc, p.secretbox, p.identity].filter((x) => x !== undefined).length;
  if (found === 0) return [invalid(path, providerValue(p), 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity')];
  if (found > 1) return [invalid(path, providerValue(p), 'more than one provider specified in a single element, should split into different list elements')];
  return [];
}

const base64Std = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of a base64 (standard, padded) secret, or undefined when it is not valid base64. */
export function decodeSecret(secret: string): Buffer | undefined {
  const s = secret.replace(/[\r\n]/g, '');
  return base64Std.test(s) ? Buffer.from(s, 'base64') : undefined;
}

function validateKeys(c: KeysConfiguration, path: string, sizes: readonly number[]): string[] {
  if (c.keys.length === 0) return [required(path, 'at least one keys is required')];
  const errs: string[] = [];
  c.keys.forEach((key, i) => {
    const at = `${path}[${i}]`;
    if (key.name === '') errs.push(required(`${at}.name`, 'name is a mandatory field for a key'));
    if (key.secret === '') {
      errs.push(required(`${at}.secret`, 'secret is a mandatory field for a key'));
      return;
    }
    const secret = decodeSecret(key.secret);
    if (!secret) {
      errs.push(invalid(`${at}.secret`, '"REDACTED"', 'secrets must be base64 encoded'));
      return;
    }
    if (!sizes.includes(secret.length)) {
      errs.push(invalid(`${at}.secret`, '"REDACTED"', `secret is not of the expected length, got ${secret.length}, expected one of [${sizes.join(' ')}]`));
    }
  });
  return errs;
}

function validateKms(c: KmsConfiguration, path: string, names: Set<string>, reload: boolean): string[] {
  const errs: string[] = [];
  // name
  if (c.name === '') errs.push(required(`${path}.name`, 'name is a mandatory field for a provider'));
  if (c.apiVersion !== 'v1' && c.name.includes(':')) errs.push(invalid(`${path}.name`, JSON.stringify(c.name), `invalid KMS provider name ${c.name}, must not contain ':'`));
  if ((reload || c.apiVersion !== 'v1') && names.has(c.name)) {
    errs.push(invalid(`${path}.name`, JSON.stringify(c.name), `duplicate KMS provider name ${c.name}, names must be unique`));
  }
  // timeout
  if (c.timeoutMs <= 0) errs.push(invalid(`${path}.timeout`, formatGoDuration(c.timeoutMs), 'timeout should be a positive value'));
  // endpoint
  if (c.endpoint === '') errs.push(invalid(`${path}.endpoint`, '""', 'endpoint is a mandatory field for a kms'));
  else {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(c.endpoint)?.[1]?.toLowerCase() ?? '';
    if (scheme !== 'unix') errs.push(invalid(`${path}.endpoint`, JSON.stringify(c.endpoint), `unsupported scheme ${JSON.stringify(scheme)} for KMS provider, only unix is supported`));
  }
  // cachesize
  if (c.apiVersion !== 'v1' && c.cachesize !== undefined) errs.push(invalid(`${path}.cachesize`, String(c.cachesize), 'cachesize is not supported in v2'));
  if (c.apiVersion === 'v1' && c.cachesize === 0) errs.push(invalid(`${path}.cachesize`, '0', 'cachesize should be a positive value, or negative to disable'));
  // apiVersion
  if (c.apiVersion !== 'v1' && c.apiVersion !== 'v2') errs.push(invalid(`${path}.apiVersion`, JSON.stringify(c.apiVersion), 'unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported'));
  return errs;
}
