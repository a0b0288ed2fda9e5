/**
 * The --tracing-config-file as kube-apiserver reads it (apiserver's ReadTracingConfiguration and
 * component-base's ValidateTracingConfiguration): YAML or JSON, kind TracingConfiguration in
 * apiserver.config.k8s.io/v1alpha1 or v1beta1 (the versions 1.33 registers it in), decoded
 * strictly, then validated with kube's messages. Go's JSON errors are approximated.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { TracingConfiguration } from './interface.js';

/** The group versions kube-apiserver 1.33 decodes a TracingConfiguration from. */
export const tracingConfigAPIVersions: readonly string[] = ['apiserver.config.k8s.io/v1alpha1', 'apiserver.config.k8s.io/v1beta1'];

/** The OTLP gRPC default endpoint (also kube's default). */
export const defaultTracingEndpoint = 'localhost:4317';

const maxSamplingRatePerMillion = 1_000_000;
const fields = new Set(['apiVersion', 'kind', 'endpoint', 'samplingRatePerMillion']);

/** The configuration in data, defaulted; throws with kube's decoding error. Does not validate. */
export function decodeTracingConfiguration(data: string): TracingConfiguration & { readonly explicitEndpoint: boolean } {
  let doc: unknown;
  try {
    doc = parseYaml(data);
  } catch (err) {
    throw new Error(`yaml: ${(err as Error).message.split('\n')[0]}`);
  }
  // An empty file is JSON null to kube's decoder: no kind.
  if (doc === null || doc === undefined) throw new Error(`Object 'Kind' is missing in 'null'`);
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeOf(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const raw = doc as Record<string, unknown>;
  const kind = typeof raw.kind === 'string' ? raw.kind : '';
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${JSON.stringify(doc)}'`);
  if (kind !== 'TracingConfiguration' || !tracingConfigAPIVersions.includes(apiVersion)) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  }
  const unknown = Object.keys(raw).filter((k) => !fields.has(k));
  if (unknown.length > 0) throw new Error(`strict decoding error: ${unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`);
  const endpoint = raw.endpoint ?? null;
  if (endpoint !== null && typeof endpoint !== 'string') throw typeError(endpoint, 'endpoint', 'string');
  const rate = raw.samplingRatePerMillion ?? null;
  if (rate !== null && (typeof rate !== 'number' || !Number.isInteger(rate) || rate < -(2 ** 31) || rate >= 2 ** 31)) throw typeError(rate, 'samplingRatePerMillion', 'int32');
  return {
    endpoint: endpoint ?? defaultTracingEndpoint,
    explicitEndpoint: endpoint !== null,
    samplingRatePerMillion: rate ?? 0,
  };
}

function goTypeOf(v: unknown): string {
  if (typeof v === 'number') return `number ${v}`;
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function typeError(v: unknown, field: string, goType: string): Error {
  return new Error(`json: cannot unmarshal ${goTypeOf(v)} into Go struct field TracingConfiguration.${field} of type ${goType}`);
}

/** Go's url.Parse, as far as validateEndpoint's outcome depends on it: the scheme, or the parse error. */
function goUrlScheme(raw: string): { scheme: string } | { error: string } {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(raw);
  if (raw.startsWith(':')) return { error: `parse ${JSON.stringify(raw)}: missing protocol scheme` };
  if (!m) return { scheme: '' };
  const rest = raw.slice((m[0] as string).length);
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split(/[/?#]/)[0] as string;
    const host = authority.includes('@') ? authority.slice(authority.lastIndexOf('@') + 1) : authority;
    const bad = /[^a-zA-Z0-9.\-_~!$&'()*+,;=:[\]%]/.exec(host);
    if (bad) return { error: `parse ${JSON.stringify(raw)}: invalid character ${JSON.stringify(bad[0])} in host name` };
    const port = /^(?:\[[^\]]*\]|[^:]*)(:.*)?$/.exec(host)?.[1];
    if (port !== undefined && !/^:[0-9]*$/.test(port)) return { error: `parse ${JSON.stringify(raw)}: invalid port ${JSON.stringify(port)} after host` };
  }
  return { scheme: (m[1] as string).toLowerCase() };
}

/**
 * kube's ValidateTracingConfiguration: each problem as "<field>: Invalid value: <value>: <why>"
 * (empty when valid). Only fields the file set are checked.
 */
export function validateTracingConfiguration(c: TracingConfiguration & { readonly explicitEndpoint?: boolean }): string[] {
  const errs: string[] = [];
  const rate = c.samplingRatePerMillion;
  if (rate < 0) errs.push(`samplingRatePerMillion: Invalid value: ${rate}: sampling rate must be positive`);
  if (rate > maxSamplingRatePerMillion) errs.push(`samplingRatePerMillion: Invalid value: ${rate}: sampling rate per million must be less than or equal to one million`);
  if (c.explicitEndpoint !== false) {
    const endpoint = c.endpoint.includes('//') ? c.endpoint : `dns://${c.endpoint}`;
    const parsed = goUrlScheme(endpoint);
    if ('error' in parsed) errs.push(`endpoint: Invalid value: ${JSON.stringify(endpoint)}: ${parsed.error}`);
    else if (!['dns', 'unix', 'unix-abstract'].includes(parsed.scheme)) {
      errs.push(`endpoint: Invalid value: ${JSON.stringify(endpoint)}: unsupported scheme: ${parsed.scheme}.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md`);
    }
  }
  return errs;
}

/**
 * Reads, decodes and validates the file as kube-apiserver's tracing options do when it starts;
 * throws with kube's message ("failed to read tracing config: ...", "failed to validate tracing
 * configuration: ...").
 */
export function loadTracingConfiguration(path: string): TracingConfiguration {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file or directory' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new Error(`failed to read tracing config: unable to read tracing configuration from ${JSON.stringify(path)}: ${e.code === 'EISDIR' ? 'read' : 'open'} ${path}: ${why}`);
  }
  let config: ReturnType<typeof decodeTracingConfiguration>;
  try {
    config = decodeTracingConfiguration(text);
  } catch (err) {
    throw new Error(`failed to read tracing config: unable to decode tracing configuration data: ${(err as Error).message}`);
  }
  const errs = validateTracingConfiguration(config);
  if (errs.length > 0) throw new Error(`failed to validate tracing configuration: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
  return { endpoint: config.endpoint, samplingRatePerMillion: config.samplingRatePerMillion };
}
