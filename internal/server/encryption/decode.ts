/**
 * Reads an EncryptionConfiguration file as kube-apiserver does: YAML or JSON, apiVersion
 * apiserver.config.k8s.io/v1 and kind EncryptionConfiguration, strict (an unknown field is an
 * error), then kube's defaults. Messages follow kube's (Go's JSON errors approximated).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseGoDuration } from '../options/duration.js';
import type { EncryptionConfiguration, KmsConfiguration, ProviderConfiguration } from './types.js';

/** The API version the file must have. */
export const encryptionConfigAPIVersion = 'apiserver.config.k8s.io/v1';
/** The kind the file must have. */
export const encryptionConfigKind = 'EncryptionConfiguration';
const kmsDefaultTimeoutMs = 3000;
const kmsDefaultCacheSize = 1000;

/** A file's bytes and a hash of them (to notice changes without keeping keys in memory twice). */
export interface ConfigFileData {
  readonly data: Buffer;
  readonly hash: string;
}

/** Reads the file; throws with kube's words when it cannot be read or is empty. */
export function readConfigFile(path: string): ConfigFileData {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file or directory' : e.code === 'EACCES' ? 'permission denied' : e.message;
    throw new Error(`error reading encryption provider configuration file ${JSON.stringify(path)}: open ${path}: ${why}`);
  }
  if (data.length === 0) throw new Error(`encryption provider configuration file ${JSON.stringify(path)} is empty`);
  return { data, hash: `k8s:enc:unstable:1:${createHash('sha256').update(data).digest('hex')}` };
}

type Spec = 'string' | 'int32' | 'duration' | 'empty' | { readonly list: Spec } | { readonly fields: Readonly<Record<string, Spec>>; readonly goName: string };

const keysSpec: Spec = { goName: 'AESConfiguration', fields: { keys: { list: { goName: 'Key', fields: { name: 'string', secret: 'string' } } } } };
const providerSpec: Spec = {
  goName: 'ProviderConfiguration',
  fields: {
    aesgcm: keysSpec,
    aescbc: keysSpec,
    secretbox: { goName: 'SecretboxConfiguration', fields: { keys: (keysSpec as { fields: Record<string, Spec> }).fields.keys as Spec } },
    identity: 'empty',
    kms: { goName: 'KMSConfiguration', fields: { apiVersion: 'string', name: 'string', cachesize: 'int32', endpoint: 'string', timeout: 'duration' } },
  },
};
const rootSpec: Spec = {
  goName: 'EncryptionConfiguration',
  fields: {
    apiVersion: 'string',
    kind: 'string',
    resources: { list: { goName: 'ResourceConfiguration', fields: { resources: { list: 'string' }, providers: { list: providerSpec } } } },
  },
};

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** Checks value against spec; unknown fields go to unknown, type errors throw. */
function check(value: unknown, spec: Spec, path: string, unknown: string[]): void {
  if (value === null || value === undefined) return;
  const mismatch = (goType: string): Error => new Error(`json: cannot unmarshal ${jsonType(value)} into Go struct field ${path || 'EncryptionConfiguration'} of type ${goType}`);
  if (spec === 'string') {
    if (typeof value !== 'string') throw mismatch('string');
  } else if (spec === 'int32') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) throw mismatch('int32');
  } else if (spec === 'duration') {
    if (typeof value !== 'string') throw mismatch('string');
    parseGoDuration(value);
  } else if (spec === 'empty') {
    if (typeof value !== 'object' || Array.isArray(value)) throw mismatch('v1.IdentityConfiguration');
    for (const k of Object.keys(value)) unknown.push(`${path}.${k}`);
  } else if ('list' in spec) {
    if (!Array.isArray(value)) throw mismatch('[]' + (typeof spec.list === 'string' ? spec.list : `v1.${(spec.list as { goName: string }).goName}`));
    value.forEach((item, i) => check(item, spec.list, `${path}[${i}]`, unknown));
  } else {
    if (typeof value !== 'object' || Array.isArray(value)) throw mismatch(`v1.${spec.goName}`);
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const child = spec.fields[k];
      const childPath = path ? `${path}.${k}` : k;
      if (child === undefined) unknown.push(childPath);
      else check(v, child, childPath, unknown);
    }
  }
}

/**
 * Decodes the file's bytes into a defaulted EncryptionConfiguration; throws with the decoding
 * error (wrong apiVersion or kind, unknown fields, wrong types). Does not validate.
 */
export function decodeEncryptionConfiguration(data: Buffer): EncryptionConfiguration {
  let doc: unknown;
  try {
    doc = parseYaml(data.toString('utf8'));
  } catch (err) {
    throw new Error(`yaml: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`couldn't get version/kind; json parse error: the file is not a YAML or JSON object`);
  const raw = doc as Record<string, unknown>;
  const kind = typeof raw.kind === 'string' ? raw.kind : '';
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (apiVersion !== encryptionConfigAPIVersion || kind !== encryptionConfigKind) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  const unknown: string[] = [];
  check(doc, rootSpec, '', unknown);
  if (unknown.length > 0) throw new Error(`strict decoding error: ${unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`);
  const resources = (raw.resources as Array<Record<string, unknown>> | null | undefined) ?? [];
  return {
    resources: resources.map((r) => ({
      resources: ((r?.resources as string[] | null) ?? []).map((s) => s ?? ''),
      providers: ((r?.providers as Array<Record<string, unknown> | null> | null) ?? []).map((p) => defaultProvider(p ?? {})),
    })),
  };
}

function keysOf(v: unknown): { keys: { name: string; secret: string }[] } {
  const keys = ((v as { keys?: Array<{ name?: string; secret?: string } | null> | null })?.keys ?? []).map((k) => ({ name: k?.name ?? '', secret: k?.secret ?? '' }));
  return { keys };
}

function defaultProvider(p: Record<string, unknown>): ProviderConfiguration {
  const out: { -readonly [K in keyof ProviderConfiguration]: ProviderConfiguration[K] } = {};
  // A key present with null is no provider, as Go's nil pointer would be.
  if (p.aesgcm != null) out.aesgcm = keysOf(p.aesgcm);
  if (p.aescbc != null) out.aescbc = keysOf(p.aescbc);
  if (p.secretbox != null) out.secretbox = keysOf(p.secretbox);
  if (p.identity != null) out.identity = {};
  if (p.kms != null) {
    const k = p.kms as Record<string, unknown>;
    const apiVersion = typeof k.apiVersion === 'string' && k.apiVersion !== '' ? k.apiVersion : 'v1';
    const cachesize = typeof k.cachesize === 'number' ? k.cachesize : apiVersion === 'v1' ? kmsDefaultCacheSize : undefined;
    const kms: KmsConfiguration = {
      apiVersion,
      name: typeof k.name === 'string' ? k.name : '',
      cachesize,
      endpoint: typeof k.endpoint === 'string' ? k.endpoint : '',
      timeoutMs: typeof k.timeout === 'string' ? parseGoDuration(k.timeout) : kmsDefaultTimeoutMs,
    };
    out.kms = kms;
  }
  return out;
}
