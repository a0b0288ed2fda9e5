/**
 * The KubeletConfiguration v1beta1 fields the node agent honours, each with its JSON type (checked
 * as Go's strict decoder checks it, with its messages) and how it lands in NodeAgentConfig. A
 * config file's zero values take v1beta1's defaults where kubelet's SetDefaults does so (durations,
 * maxPods, port, ...); a flag's zero is taken as given, as kubelet parses flags over the defaults.
 */
import type { NodeAgentConfig, Taint } from '../interface.js';
import { parseGoDuration } from '../../server/options/duration.js';
import { parseQuantity } from '../../validation/quantity.js';
import { checkTaint } from './taints.js';

/** NodeAgentConfig while it is being built. */
export type Draft = { -readonly [K in keyof NodeAgentConfig]: NodeAgentConfig[K] } & {
  /** evictionSoft's raw maps, combined with the grace periods once every source is merged. */
  evictionSoftRaw?: Record<string, string>;
  evictionSoftGraceRaw?: Record<string, string>;
  evictionHardRaw?: Record<string, string>;
};

/** A field value that failed its type check or parse. */
export class ConfigFieldError extends Error {}

type Kind = 'duration' | 'int32' | 'float' | 'bool' | 'string' | 'strings' | 'quantity' | 'object' | 'taints' | 'stringMap' | 'headerMap';

/** One honoured field. */
export interface FieldSpec {
  readonly kind: Kind;
  /** Applies a type-checked value; zeroDefaults is true for config files (v1beta1 defaulting). */
  apply(d: Draft, value: unknown, zeroDefaults: boolean, defaults: NodeAgentConfig): void;
}

const goType: Record<Kind, string> = {
  duration: 'v1.Duration',
  int32: 'int32',
  float: 'float64',
  bool: 'bool',
  string: 'string',
  strings: '[]string',
  quantity: 'string',
  object: 'struct',
  taints: '[]v1.Taint',
  stringMap: 'map[string]string',
  headerMap: 'map[string][]string',
};

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Checks value against kind as Go's JSON decoder does; throws its message naming path. */
export function checkKind(kind: Kind, value: unknown, path: string): void {
  const ok = (() => {
    switch (kind) {
      case 'duration':
      case 'string':
      case 'quantity':
        return typeof value === 'string';
      case 'int32':
        return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
      case 'float':
        return typeof value === 'number';
      case 'bool':
        return typeof value === 'boolean';
      case 'strings':
        return Array.isArray(value) && value.every((s) => typeof s === 'string');
      case 'taints':
        return Array.isArray(value) && value.every((t) => jsonTypeOf(t) === 'object');
      case 'stringMap':
        return jsonTypeOf(value) === 'object' && Object.values(value as object).every((s) => typeof s === 'string');
      case 'headerMap':
        return jsonTypeOf(value) === 'object' && Object.values(value as object).every((l) => Array.isArray(l) && l.every((s) => typeof s === 'string'));
      case 'object':
        return jsonTypeOf(value) === 'object';
    }
  })();
  if (value === null) return;
  if (!ok) {
    const t = jsonTypeOf(value);
    const what = t === 'number' && kind === 'int32' && typeof value === 'number' && Number.isInteger(value) ? `number ${value}` : t;
    throw new ConfigFieldError(`json: cannot unmarshal ${what} into Go struct field KubeletConfiguration.${path} of type ${goType[kind]}`);
  }
  if (kind === 'duration') {
    try {
      parseGoDuration(value as string);
    } catch (err) {
      throw new ConfigFieldError((err as Error).message);
    }
  }
  if (kind === 'quantity') {
    try {
      parseQuantity(value as string);
    } catch (err) {
      throw new ConfigFieldError(`${path}: ${(err as Error).message}`);
    }
  }
}

type DraftKey = keyof NodeAgentConfig;

function duration(key: DraftKey): FieldSpec {
  return {
    kind: 'duration',
    apply(d, v, zero, defaults) {
      const ms = parseGoDuration(v as string);
      (d as Record<string, unknown>)[key] = zero && ms === 0 ? defaults[key] : ms;
    },
  };
}

function int(key: DraftKey, zeroIsDefault = false): FieldSpec {
  return {
    kind: 'int32',
    apply(d, v, zero, defaults) {
      (d as Record<string, unknown>)[key] = zero && zeroIsDefault && v === 0 ? defaults[key] : v;
    },
  };
}

function plain(kind: 'bool' | 'string' | 'strings', key: DraftKey, zeroIsDefault = false): FieldSpec {
  return {
    kind,
    apply(d, v, zero, defaults) {
      (d as Record<string, unknown>)[key] = zero && zeroIsDefault && v === '' ? defaults[key] : v;
    },
  };
}

function toTaints(list: unknown[]): Taint[] {
  return list.map((t) => {
    const obj = t as Record<string, unknown>;
    for (const k of Object.keys(obj)) if (!['key', 'value', 'effect', 'timeAdded'].includes(k)) throw new ConfigFieldError(`unknown field "registerWithTaints.${k}"`);
    return checkTaint(obj, `${String(obj.key ?? '')}${obj.value ? `=${String(obj.value)}` : ''}:${String(obj.effect ?? '')}`);
  });
}

/** Every honoured top-level field but authentication and authorization (see nestedFields). */
export const configFields: Readonly<Record<string, FieldSpec>> = {
  address: plain('string', 'address', true),
  port: int('port', true),
  readOnlyPort: int('readOnlyPort'),
  healthzPort: int('healthzPort'),
  healthzBindAddress: plain('string', 'healthzBindAddress'),
  tlsCertFile: plain('string', 'tlsCertFile'),
  tlsPrivateKeyFile: plain('string', 'tlsPrivateKeyFile'),
  tlsCipherSuites: plain('strings', 'tlsCipherSuites'),
  tlsMinVersion: plain('string', 'tlsMinVersion'),
  rotateCertificates: plain('bool', 'rotateCertificates'),
  serverTLSBootstrap: plain('bool', 'serverTLSBootstrap'),
  staticPodPath: plain('string', 'staticPodPath'),
  staticPodURL: plain('string', 'staticPodURL'),
  staticPodURLHeader: { kind: 'headerMap', apply: (d, v) => (d.staticPodURLHeader = v as Record<string, string[]>) },
  fileCheckFrequency: duration('fileCheckFrequencyMs'),
  httpCheckFrequency: duration('httpCheckFrequencyMs'),
  syncFrequency: duration('syncFrequencyMs'),
  maxPods: int('maxPods', true),
  podsPerCore: int('podsPerCore'),
  containerRuntimeEndpoint: plain('string', 'containerRuntimeEndpoint', true),
  runtimeRequestTimeout: duration('runtimeRequestTimeoutMs'),
  containerLogMaxFiles: int('containerLogMaxFiles'),
  containerLogMaxSize: {
    kind: 'quantity',
    apply(d, v, zero, defaults) {
      d.containerLogMaxSize = zero && v === '' ? defaults.containerLogMaxSize : Number(parseQuantity(v as string).value());
    },
  },
  podLogsDir: {
    kind: 'string',
    apply(d, v) {
      // v1beta1's default (/var/log/pods) is the absent value; kubelet requires an absolute path.
      if (v === '' || v === '/var/log/pods') delete (d as { podLogsDir?: string }).podLogsDir;
      else if (!String(v).startsWith('/')) throw new ConfigFieldError(`invalid configuration: pod logs path ${JSON.stringify(v)} must be absolute path`);
      else d.podLogsDir = v as string;
    },
  },
  cgroupDriver: plain('string', 'cgroupDriver', true),
  cgroupRoot: plain('string', 'cgroupRoot'),
  serializeImagePulls: plain('bool', 'serializeImagePulls'),
  registryPullQPS: int('registryPullQPS'),
  registryBurst: int('registryBurst', true),
  imageGCHighThresholdPercent: int('imageGCHighThresholdPercent'),
  imageGCLowThresholdPercent: int('imageGCLowThresholdPercent'),
  nodeStatusUpdateFrequency: duration('nodeStatusUpdateFrequencyMs'),
  nodeStatusReportFrequency: duration('nodeStatusReportFrequencyMs'),
  nodeLeaseDurationSeconds: int('nodeLeaseDurationSeconds', true),
  registerNode: plain('bool', 'registerNode'),
  registerWithTaints: { kind: 'taints', apply: (d, v) => (d.registerWithTaints = toTaints(v as unknown[])) },
  evictionHard: { kind: 'stringMap', apply: (d, v) => (d.evictionHardRaw = { ...(v as Record<string, string>) }) },
  evictionSoft: { kind: 'stringMap', apply: (d, v) => (d.evictionSoftRaw = { ...(v as Record<string, string>) }) },
  evictionSoftGracePeriod: { kind: 'stringMap', apply: (d, v) => (d.evictionSoftGraceRaw = { ...(v as Record<string, string>) }) },
  evictionPressureTransitionPeriod: duration('evictionPressureTransitionPeriodMs'),
  evictionMaxPodGracePeriod: int('evictionMaxPodGracePeriod'),
  kubeAPIQPS: int('kubeAPIQPS'),
  kubeAPIBurst: int('kubeAPIBurst', true),
  eventRecordQPS: int('eventRecordQPS'),
  eventBurst: int('eventBurst', true),
  clusterDNS: plain('strings', 'clusterDNS'),
  clusterDomain: plain('string', 'clusterDomain'),
  resolvConf: plain('string', 'resolvConf'),
};

/** authentication.* and authorization.* leaves. */
export const nestedFields: Readonly<Record<string, FieldSpec>> = {
  'authentication.x509.clientCAFile': {
    kind: 'string',
    apply: (d, v) => (d.authentication = { ...d.authentication, x509: v ? { clientCAFile: v as string } : {} }),
  },
  'authentication.webhook.enabled': {
    kind: 'bool',
    apply: (d, v) => (d.authentication = { ...d.authentication, webhook: { ...d.authentication.webhook, enabled: v as boolean } }),
  },
  'authentication.webhook.cacheTTL': {
    kind: 'duration',
    apply(d, v, zero, defaults) {
      const ms = parseGoDuration(v as string);
      d.authentication = { ...d.authentication, webhook: { ...d.authentication.webhook, cacheTTLMs: zero && ms === 0 ? defaults.authentication.webhook.cacheTTLMs : ms } };
    },
  },
  'authentication.anonymous.enabled': {
    kind: 'bool',
    apply: (d, v) => (d.authentication = { ...d.authentication, anonymous: { enabled: v as boolean } }),
  },
  'authorization.mode': {
    kind: 'string',
    apply(d, v, zero, defaults) {
      const mode = zero && v === '' ? defaults.authorization.mode : v;
      if (mode !== 'AlwaysAllow' && mode !== 'Webhook') throw new ConfigFieldError(`invalid configuration: authorization.mode ${JSON.stringify(mode)} must be one of AlwaysAllow or Webhook`);
      d.authorization = { ...d.authorization, mode };
    },
  },
  'authorization.webhook.cacheAuthorizedTTL': {
    kind: 'duration',
    apply(d, v, zero, defaults) {
      const ms = parseGoDuration(v as string);
      d.authorization = { ...d.authorization, webhook: { ...d.authorization.webhook, cacheAuthorizedTTLMs: zero && ms === 0 ? defaults.authorization.webhook.cacheAuthorizedTTLMs : ms } };
    },
  },
  'authorization.webhook.cacheUnauthorizedTTL': {
    kind: 'duration',
    apply(d, v, zero, defaults) {
      const ms = parseGoDuration(v as string);
      d.authorization = { ...d.authorization, webhook: { ...d.authorization.webhook, cacheUnauthorizedTTLMs: zero && ms === 0 ? defaults.authorization.webhook.cacheUnauthorizedTTLMs : ms } };
    },
  },
};

/** The objects nestedFields live in (any other key inside them is unknown). */
export const nestedObjects: readonly string[] = ['authentication', 'authentication.x509', 'authentication.webhook', 'authentication.anonymous', 'authorization', 'authorization.webhook'];
