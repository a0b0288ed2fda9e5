/**
 * Builds encryption at rest from an EncryptionConfiguration file, as kube's LoadEncryptionConfig
 * does: read, decode, validate, then one prefix transformer list per resource rule (providers in
 * order, the first writing), with a KMS v2 plugin client and probe per kms provider. Messages
 * carry kube's prefixes ("error while parsing file: ...", "error while building transformers: ...").
 */
import { AesCbcTransformer } from '../../storage/value/aescbc.js';
import { AesGcmTransformer } from '../../storage/value/aesgcm.js';
import { identityTransformer } from '../../storage/value/identity.js';
import { errorMessage, type ValueTransformer } from '../../storage/value/interface.js';
import { KmsV2EnvelopeTransformer } from '../../storage/value/kmsv2/envelope.js';
import { GrpcKmsService } from '../../storage/value/kmsv2/grpc-service.js';
import { KmsV2Probe, type KmsProbeTimings } from '../../storage/value/kmsv2/probe.js';
import type { KmsService } from '../../storage/value/kmsv2/service.js';
import { PrefixTransformers, type PrefixedTransformer } from '../../storage/value/prefix.js';
import { ruleKey, type TransformerRules } from '../../storage/value/resource-transformers.js';
import { SecretboxTransformer } from '../../storage/value/secretbox.js';
import { decodeEncryptionConfiguration, readConfigFile } from './decode.js';
import type { KeysConfiguration, KmsConfiguration, ProviderConfiguration } from './types.js';
import { decodeSecret, parseGroupResource, validateEncryptionConfiguration } from './validate.js';

/** The kms-providers check: every KMS plugin's probe; no-op without KMS. */
export interface KmsProvidersCheck {
  check(): Promise<void>;
}

/** Encryption at rest built from one version of the file. */
export interface BuiltEncryption {
  /** Transformers by resource rule (see ResourceTransformers). */
  readonly rules: TransformerRules;
  /** kube's "kms-providers" check over every KMS v2 provider, in file order ("kms-provider-<i>: ..."). */
  readonly kmsCheck: KmsProvidersCheck;
  /** Whether any KMS provider is configured. */
  readonly kmsUsed: boolean;
  /** The file's content hash (to notice changes). */
  readonly hash: string;
  /** Twice the sum of KMS timeouts: how long an old build stays open after a reload (kube's grace period). */
  readonly closeGracePeriodMs: number;
  /** Stops the probes and closes the plugin connections. Idempotent. */
  close(): void;
}

/** What building needs beyond the file. */
export interface BuildDeps {
  readonly log: (message: string) => void;
  readonly kmsTimings?: KmsProbeTimings;
  /** Makes a plugin client (tests may inject one); defaults to gRPC on the unix socket. */
  readonly kmsService?: (endpoint: string, timeoutMs: number) => KmsService;
  /** The KMSv1 gate: off, a v1 provider is refused with kube's message naming the gate. */
  readonly kmsV1?: boolean;
}

const kmsV1Refused =
  'KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.';

// Capstan speaks only the KMS v2 plugin protocol (k8s.io/kms v2); kube 1.33 deprecates v1.
const kmsV1Unsupported =
  'KMSv1 is enabled by --feature-gates=KMSv1=true, but Capstan does not implement the KMS v1 plugin protocol (k8s.io/kms v1beta1): use a KMS v2 provider (apiVersion: v2)';

/** Reads, validates and builds the file at path; throws with kube's message when any step fails. */
export async function loadEncryptionConfig(path: string, reload: boolean, deps: BuildDeps): Promise<BuiltEncryption> {
  let config;
  let hash: string;
  try {
    let data: Buffer;
    try {
      ({ data, hash } = readConfigFile(path));
    } catch (err) {
      throw new Error(`error while loading file: ${errorMessage(err)}`);
    }
    try {
      config = decodeEncryptionConfiguration(data);
    } catch (err) {
      throw new Error(`error decoding encryption provider configuration file ${JSON.stringify(path)}: ${errorMessage(err)}`);
    }
    const errs = validateEncryptionConfiguration(config, reload);
    if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  } catch (err) {
    throw new Error(`error while parsing file: ${errorMessage(err)}`);
  }

  const probes: KmsV2Probe[] = [];
  const services: KmsService[] = [];
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    for (const p of probes) p.stop();
    for (const s of services) s.close();
  };
  try {
    const lists = new Map<string, PrefixedTransformer[]>();
    let timeoutSumMs = 0;
    for (const rc of config.resources) {
      const providers: PrefixedTransformer[] = [];
      for (const provider of rc.providers) {
        providers.push(await buildProvider(provider, deps, probes, services));
        if (provider.kms) timeoutSumMs += provider.kms.timeoutMs;
      }
      for (const resource of rc.resources) {
        const gr = parseGroupResource(resource);
        const groupWide = { group: gr.group, resource: '*' };
        if (lists.has(ruleKey(groupWide))) throw new Error(`resource ${JSON.stringify(yamlString(gr))} is masked by earlier rule ${JSON.stringify(yamlString(groupWide))}`);
        if (lists.has('*/*')) throw new Error(`resource ${JSON.stringify(yamlString(gr))} is masked by earlier rule "*.*"`);
        const key = ruleKey(gr);
        lists.set(key, [...(lists.get(key) ?? []), ...providers]);
      }
    }
    const rules = new Map<string, ValueTransformer>();
    for (const [key, list] of lists) rules.set(key, new PrefixTransformers(list, 'no matching prefix found'));
    return {
      rules,
      kmsCheck: { check: () => checkProbes(probes) },
      kmsUsed: probes.length > 0,
      hash,
      closeGracePeriodMs: 2 * timeoutSumMs,
      close,
    };
  } catch (err) {
    close();
    throw new Error(`error while building transformers: ${errorMessage(err)}`);
  }
}

/** How kube prints a group resource in masking errors ("*." for every core resource). */
function yamlString(gr: { group: string; resource: string }): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

async function checkProbes(probes: readonly KmsV2Probe[]): Promise<void> {
  const errs: string[] = [];
  for (let i = 0; i < probes.length; i++) {
    try {
      await (probes[i] as KmsV2Probe).check();
    } catch (err) {
      errs.push(`kms-provider-${i}: ${errorMessage(err)}`);
    }
  }
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
}

function keyed(c: KeysConfiguration, make: (key: Buffer) => ValueTransformer, noMatch: string): ValueTransformer {
  const entries = c.keys.map((k) => {
    const secret = decodeSecret(k.secret);
    if (!secret) throw new Error(`could not obtain secret for named key ${k.name}: illegal base64 data`);
    let transformer: ValueTransformer;
    try {
      transformer = make(secret);
    } catch (err) {
      throw new Error(`error while creating cipher for named key ${k.name}: ${errorMessage(err)}`);
    }
    return { prefix: Buffer.from(`${k.name}:`), transformer };
  });
  return new PrefixTransformers(entries, noMatch);
}

async function buildProvider(p: ProviderConfiguration, deps: BuildDeps, probes: KmsV2Probe[], services: KmsService[]): Promise<PrefixedTransformer> {
  if (p.aesgcm) return { prefix: Buffer.from('k8s:enc:aesgcm:v1:'), transformer: keyed(p.aesgcm, (k) => new AesGcmTransformer(k), 'no matching key was found for the provided AES transformer') };
  if (p.aescbc) return { prefix: Buffer.from('k8s:enc:aescbc:v1:'), transformer: keyed(p.aescbc, (k) => new AesCbcTransformer(k), 'no matching key was found for the provided AES transformer') };
  if (p.secretbox) return { prefix: Buffer.from('k8s:enc:secretbox:v1:'), transformer: keyed(p.secretbox, (k) => new SecretboxTransformer(k), 'no matching key was found for the provided Secretbox transformer') };
  if (p.kms) return await buildKms(p.kms, deps, probes, services);
  if (p.identity) return { prefix: Buffer.alloc(0), transformer: identityTransformer };
  throw new Error('provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity');
}

async function buildKms(c: KmsConfiguration, deps: BuildDeps, probes: KmsV2Probe[], services: KmsService[]): Promise<PrefixedTransformer> {
  if (c.apiVersion === 'v1') throw new Error(deps.kmsV1 ? kmsV1Unsupported : kmsV1Refused);
  if (c.apiVersion !== 'v2') throw new Error(`could not configure KMS plugin ${JSON.stringify(c.name)}, unsupported KMS API version ${JSON.stringify(c.apiVersion)}`);
  let service: KmsService;
  try {
    service = deps.kmsService ? deps.kmsService(c.endpoint, c.timeoutMs) : new GrpcKmsService(c.endpoint, c.timeoutMs);
  } catch (err) {
    throw new Error(`could not configure KMSv2-Plugin's probe ${JSON.stringify(c.name)}, error: ${errorMessage(err)}`);
  }
  services.push(service);
  const probe = new KmsV2Probe(c.name, service, deps.kmsTimings, deps.log);
  probes.push(probe);
  // Primed inline, as kube does: a healthy plugin has a seed before the first write.
  await probe.start();
  return { prefix: Buffer.from(`k8s:enc:kms:v2:${c.name}:`), transformer: new KmsV2EnvelopeTransformer(service, probe) };
}
