/**
 * Pod spec validation (kube's ValidatePodSpec and the Pod-only checks of
 * validatePodMetadataAndSpec), shared by pods and by the pod templates of workloads: volumes,
 * the three container lists, host networking, restart and DNS policies, names the spec refers
 * to, scheduling and readiness gates, DNS config, and pod overhead. Values kube's defaulting
 * always fills are checked only when present.
 */
import { validateLabels } from '../../../selectors/label-selector-object.js';
import { childPath, duplicate, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../validation/label-values.js';
import { validateResourceRequirements } from './container-resources.js';
import { validateContainerOnlyForPod } from './container-validation.js';
import { validateIP } from './ip.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from './json-value.js';
import { validateContainers, validateEphemeralContainers, validateInitContainers } from './pod-containers.js';
import { inclusiveRangeError } from './ports.js';
import { validateVolumes } from './volume-validation.js';

/** How a spec is checked: a pod's own spec is stricter than a template's. */
export interface PodSpecOptions {
  /** True for a Pod (not a template): image whitespace is refused and hostPort must equal containerPort under hostNetwork. */
  readonly isPod: boolean;
}

const maxInt32 = 2147483647;
const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** validatePodHostNetworkDeps: with hostNetwork, a container's hostPort is its containerPort. */
function validateHostNetworkDeps(spec: JsonObject | undefined, path: string, opts: PodSpecOptions): FieldError[] {
  if (spec?.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  arrayAt(spec, 'containers').forEach((c, i) => {
    arrayAt(asObject(c), 'ports').forEach((raw, j) => {
      const port = asObject(raw);
      const hp = typeof port?.hostPort === 'number' ? port.hostPort : 0;
      const cp = typeof port?.containerPort === 'number' ? port.containerPort : 0;
      if ((opts.isPod || hp !== 0) && hp !== cp) {
        const p = childPath(indexPath(childPath(indexPath(childPath(path, 'containers'), i), 'ports'), j), 'hostPort');
        errs.push(invalid(p, hp, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

/** validatePodDNSConfig: dnsPolicy None needs nameservers; limits on nameservers and searches. */
function validateDNSConfig(spec: JsonObject | undefined, path: string): FieldError[] {
  const config = objectAt(spec, 'dnsConfig');
  if (spec?.dnsPolicy === 'None') {
    if (!config) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (arrayAt(config, 'nameservers').length === 0) return [required(childPath(path, 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  const errs: FieldError[] = [];
  const nameservers = arrayAt(config, 'nameservers');
  if (nameservers.length > 3) errs.push(invalid(childPath(path, 'nameservers'), nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => errs.push(...validateIP(indexPath(childPath(path, 'nameservers'), i), String(ns))));
  const searches = arrayAt(config, 'searches').map(String);
  if (searches.length > 32) errs.push(invalid(childPath(path, 'searches'), searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) {
    errs.push(invalid(childPath(path, 'searches'), searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  }
  searches.forEach((s, i) => {
    const name = s.replace(/\.$/, '');
    errs.push(...isDNS1123Subdomain(name).map((m) => invalid(indexPath(childPath(path, 'searches'), i), name, m)));
  });
  arrayAt(config, 'options').forEach((o, i) => {
    if (!stringAt(asObject(o), 'name')) errs.push(required(indexPath(childPath(path, 'options'), i), 'must not be empty'));
  });
  return errs;
}

/** The gates and references of a spec: scheduling and readiness gates, pull secrets. */
function validateGatesAndRefs(spec: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arrayAt(spec, 'imagePullSecrets').forEach((s, i) => {
    const ref = asObject(s) ?? {};
    if (Object.keys(ref).some((k) => k !== 'name')) errs.push(invalid(indexPath(childPath(path, 'imagePullSecrets'), i), ref, 'only name may be set'));
  });
  arrayAt(spec, 'readinessGates').forEach((g, i) => {
    const type = stringAt(asObject(g), 'conditionType');
    const p = childPath(indexPath(childPath(path, 'readinessGates'), i), 'conditionType');
    errs.push(...isQualifiedName(type).map((m) => invalid(p, type, m)));
  });
  const seen = new Set<string>();
  arrayAt(spec, 'schedulingGates').forEach((g, i) => {
    const name = stringAt(asObject(g), 'name');
    const p = indexPath(childPath(path, 'schedulingGates'), i);
    errs.push(...isQualifiedName(name).map((m) => invalid(p, name, m)));
    if (seen.has(name)) errs.push(duplicate(p, name));
    seen.add(name);
  });
  return errs;
}

/** The names a spec refers to: service account, node, priority class, hostname, subdomain. */
function validateNames(spec: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, check] of [
    ['serviceAccountName', isDNS1123Subdomain],
    ['nodeName', isDNS1123Subdomain],
    ['hostname', isDNS1123Label],
    ['subdomain', isDNS1123Label],
    ['priorityClassName', isDNS1123Subdomain],
  ] as const) {
    const v = stringAt(spec, key);
    if (v) errs.push(...check(v).map((m) => invalid(childPath(path, key), v, m)));
  }
  return errs;
}

/** Validates a pod spec at path (e.g. `spec` or `spec.template.spec`). Never mutates. */
export function validatePodSpec(spec: JsonObject | undefined, path: string, opts: PodSpecOptions): FieldError[] {
  const grace = spec?.terminationGracePeriodSeconds;
  const { errs, names: volumes } = validateVolumes(arrayAt(spec, 'volumes'), childPath(path, 'volumes'));
  const ctx = { volumes, gracePeriod: typeof grace === 'number' ? grace : undefined };
  const containers = arrayAt(spec, 'containers');
  const inits = arrayAt(spec, 'initContainers');
  errs.push(...validateContainers(containers, ctx, childPath(path, 'containers')));
  errs.push(...validateInitContainers(inits, containers, ctx, childPath(path, 'initContainers')));
  errs.push(...validateEphemeralContainers(arrayAt(spec, 'ephemeralContainers'), containers, inits, ctx, childPath(path, 'ephemeralContainers')));
  errs.push(...validateHostNetworkDeps(spec, path, opts));
  const restartPolicy = spec?.restartPolicy;
  if (present(restartPolicy) && !restartPolicies.includes(restartPolicy as string)) {
    errs.push(notSupported(childPath(path, 'restartPolicy'), restartPolicy, restartPolicies));
  }
  const dnsPolicy = spec?.dnsPolicy;
  if (present(dnsPolicy) && !dnsPolicies.includes(dnsPolicy as string)) errs.push(notSupported(childPath(path, 'dnsPolicy'), dnsPolicy, dnsPolicies));
  const nodeSelector = objectAt(spec, 'nodeSelector');
  if (nodeSelector) errs.push(...validateLabels(nodeSelector as Record<string, string>, childPath(path, 'nodeSelector')));
  errs.push(...validateDNSConfig(spec, childPath(path, 'dnsConfig')));
  errs.push(...validateGatesAndRefs(spec, path));
  errs.push(...validateNames(spec, path));
  const ads = spec?.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null && (typeof ads !== 'number' || ads < 1 || ads > maxInt32)) {
    errs.push(invalid(childPath(path, 'activeDeadlineSeconds'), ads, inclusiveRangeError(1, maxInt32)));
  }
  const overhead = objectAt(spec, 'overhead');
  if (overhead) errs.push(...validateResourceRequirements({ limits: overhead }, childPath(path, 'overhead')));
  if (opts.isPod) {
    containers.forEach((c, i) => errs.push(...validateContainerOnlyForPod(asObject(c) ?? {}, indexPath(childPath(path, 'containers'), i))));
    inits.forEach((c, i) => errs.push(...validateContainerOnlyForPod(asObject(c) ?? {}, indexPath(childPath(path, 'initContainers'), i))));
  }
  return errs;
}
