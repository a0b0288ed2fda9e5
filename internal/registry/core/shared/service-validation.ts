/**
 * The Service checks that matter before full schema validation (kube's ValidateService and
 * ValidateServiceUpdate subset). Fields kube's defaulting always fills (port protocol,
 * targetPort, type, sessionAffinity, traffic policies) are checked only when present.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { validateLabels } from '../../../selectors/label-selector-object.js';
import { childPath, duplicate, GoLiteral, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../validation/label-values.js';
import { ipFamily, validateIP, validateNonSpecialIP } from './ip.js';
import { arrayAt, asObject, stringAt, type JsonObject } from './json-value.js';
import { isValidPortNum, validatePortNumOrName, validateProtocol } from './ports.js';
import { needsClusterIP, serviceType } from './service-spec.js';

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const sessionAffinities = ['ClientIP', 'None'];
const ipFamilies = ['IPv4', 'IPv6'];
const ipFamilyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

function clusterIPs(spec: JsonObject | undefined): string[] {
  return arrayAt(spec, 'clusterIPs').map((v) => (typeof v === 'string' ? v : ''));
}

/** isHeadlessService: exactly one cluster IP, "None". */
export function isHeadless(spec: JsonObject | undefined): boolean {
  const ips = clusterIPs(spec);
  return ips.length === 1 && ips[0] === 'None';
}

function validatePort(port: JsonObject | undefined, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(port, 'name');
  if (requireName && !name) errs.push(required(childPath(path, 'name'), ''));
  else if (name) {
    for (const m of isDNS1123Label(name)) errs.push(invalid(childPath(path, 'name'), name, m));
    if (names.has(name)) errs.push(duplicate(childPath(path, 'name'), name));
    else names.add(name);
  }
  for (const m of isValidPortNum(port?.port)) errs.push(invalid(childPath(path, 'port'), port?.port ?? 0, m));
  errs.push(...validateProtocol(port?.protocol, childPath(path, 'protocol')));
  errs.push(...validatePortNumOrName(port?.targetPort, childPath(path, 'targetPort')));
  const appProtocol = port?.appProtocol;
  if (typeof appProtocol === 'string') for (const m of isQualifiedName(appProtocol)) errs.push(invalid(childPath(path, 'appProtocol'), appProtocol, m));
  return errs;
}

/**
 * ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs in step, valid families and
 * policy, at most one address per family, each address of the family ipFamilies names. Also run
 * by the allocator before it allocates (see services/ip-families.ts).
 */
export function validateServiceClusterIPsRelatedFields(spec: JsonObject | undefined): FieldError[] {
  if (serviceType(spec) === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ip = stringAt(spec, 'clusterIP');
  const ips = clusterIPs(spec);
  const path = 'spec.clusterIPs';
  if (ip) {
    if (ips.length === 0) errs.push(required(path, ''));
    else if (ips[0] !== ip) errs.push(invalid(path, ips, 'first value must match `clusterIP`'));
  } else if (ips.length > 0) {
    errs.push(invalid(path, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  arrayAt(spec, 'ipFamilies').forEach((f, i) => {
    if (!ipFamilies.includes(f as string)) errs.push(notSupported(indexPath('spec.ipFamilies', i), f, ipFamilies));
    if (seen.has(f as string)) errs.push(duplicate(indexPath('spec.ipFamilies', i), f));
    seen.add(f as string);
  });
  const policy = spec?.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !ipFamilyPolicies.includes(policy as string)) {
    errs.push(notSupported('spec.ipFamilyPolicy', policy, ipFamilyPolicies));
  }
  let bad = false;
  ips.forEach((v, i) => {
    if (i === 0 && v === 'None') {
      if (ips.length > 1) {
        bad = true;
        errs.push(invalid(path, ips, "'None' must be the first and only value"));
      }
      return;
    }
    const e = validateIP(indexPath(path, i), v);
    if (e.length > 0) bad = true;
    errs.push(...e);
  });
  if (ips.length > 2) errs.push(invalid(path, ips, 'may only hold up to 2 values'));
  if (bad) return errs;
  if (ips.length === 2 && ipFamily(ips[0] as string) === ipFamily(ips[1] as string)) {
    errs.push(invalid(path, ips, 'may specify no more than one IP for each IP family'));
  }
  const families = arrayAt(spec, 'ipFamilies');
  if (!isHeadless(spec) && ips.length > 0 && families.length > 0) {
    ips.forEach((v, i) => {
      if (i >= families.length) return;
      if (families[i] === 'IPv4' && ipFamily(v) === 6) errs.push(invalid(indexPath(path, i), v, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && ipFamily(v) !== 6) errs.push(invalid(indexPath(path, i), v, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

const trafficPolicies = ['Cluster', 'Local'];
/** core.MaxClientIPServiceAffinitySeconds: one day. */
const maxClientIPAffinitySeconds = 86400;

/** ExternallyAccessible: NodePort and LoadBalancer services, and ClusterIP services with external IPs. */
function externallyAccessible(spec: JsonObject | undefined): boolean {
  const type = serviceType(spec);
  return type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && arrayAt(spec, 'externalIPs').length > 0);
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** validateClientIPAffinityConfig and the None rule: the config exists exactly when affinity is ClientIP. */
function validateSessionAffinityConfig(spec: JsonObject | undefined): FieldError[] {
  const path = 'spec.sessionAffinityConfig';
  const config = spec?.sessionAffinityConfig;
  if (spec?.sessionAffinity === 'None') return present(config) ? [forbidden(path, 'must not be set when session affinity is None')] : [];
  if (spec?.sessionAffinity !== 'ClientIP') return [];
  const detail = 'when session affinity type is ClientIP';
  if (!asObject(config)) return [required(path, detail)];
  const clientIP = asObject(asObject(config)?.clientIP);
  if (!clientIP) return [required(childPath(path, 'clientIP'), detail)];
  const timeout = clientIP.timeoutSeconds;
  const timeoutPath = childPath(path, 'clientIP', 'timeoutSeconds');
  if (timeout === undefined || timeout === null) return [required(timeoutPath, detail)];
  if (typeof timeout !== 'number' || timeout <= 0 || timeout > maxClientIPAffinitySeconds) {
    return [invalid(timeoutPath, timeout, `must be greater than 0 and less than ${maxClientIPAffinitySeconds}`)];
  }
  return [];
}

/** validateServiceExternalTrafficPolicy and validateServiceInternalTrafficFieldsValue, for values present. */
function validateTrafficPolicies(spec: JsonObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const etp = spec?.externalTrafficPolicy;
  if (!externallyAccessible(spec)) {
    if (present(etp)) errs.push(invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  } else if (present(etp) && !trafficPolicies.includes(etp as string)) {
    errs.push(notSupported('spec.externalTrafficPolicy', etp, trafficPolicies));
  }
  const hc = spec?.healthCheckNodePort;
  if (typeof hc === 'number' && hc !== 0) {
    if (serviceType(spec) !== 'LoadBalancer' || etp !== 'Local') {
      errs.push(invalid('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    } else errs.push(...isValidPortNum(hc).map((m) => invalid('spec.healthCheckNodePort', hc, m)));
  }
  const itp = spec?.internalTrafficPolicy;
  if (present(itp) && !trafficPolicies.includes(itp as string)) errs.push(notSupported('spec.internalTrafficPolicy', itp, trafficPolicies));
  return errs;
}

/** ValidateService without metadata. Never mutates. */
export function validateService(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const type = stringAt(spec, 'type');
  const ports = arrayAt(spec, 'ports');
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required('spec.ports', ''));
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errs.push(invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`));
  }
  if (type === 'ExternalName') {
    if (clusterIPs(spec).length > 0) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (arrayAt(spec, 'ipFamilies').length > 0) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec?.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
      errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    }
    // A CNAME may end in a dot to mark it fully qualified.
    const cname = stringAt(spec, 'externalName').replace(/\.$/, '');
    if (cname) for (const m of isDNS1123Subdomain(cname)) errs.push(invalid('spec.externalName', cname, m));
    else errs.push(required('spec.externalName', ''));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validatePort(asObject(p), ports.length > 1, names, indexPath('spec.ports', i))));
  const selector = asObject(spec?.selector);
  if (selector) errs.push(...validateLabels(selector as Record<string, string>, 'spec.selector'));
  const affinity = spec?.sessionAffinity;
  if (affinity !== undefined && affinity !== null && affinity !== '' && !sessionAffinities.includes(affinity as string)) {
    errs.push(notSupported('spec.sessionAffinity', affinity, sessionAffinities));
  }
  errs.push(...validateSessionAffinityConfig(spec));
  errs.push(...validateTrafficPolicies(spec));
  errs.push(...validateServiceClusterIPsRelatedFields(spec));
  arrayAt(spec, 'externalIPs').forEach((ip, i) => {
    const p = indexPath('spec.externalIPs', i);
    const e = validateIP(p, String(ip));
    errs.push(...(e.length > 0 ? e : validateNonSpecialIP(p, String(ip))));
  });
  if (type !== '' && !serviceTypes.includes(type)) errs.push(notSupported('spec.type', type, serviceTypes));
  if (serviceType(spec) === 'ClusterIP') {
    ports.forEach((p, i) => {
      const n = asObject(p)?.nodePort;
      if (typeof n === 'number' && n !== 0) errs.push(forbidden(childPath(indexPath('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  const portKeys = new Set<string>();
  ports.forEach((raw, i) => {
    const p = asObject(raw);
    // An absent protocol is TCP once defaulted, so it collides with an explicit TCP.
    const protocol = stringAt(p, 'protocol') || 'TCP';
    const nodePort = p?.nodePort;
    if (typeof nodePort === 'number' && nodePort !== 0) {
      const k = `${protocol}/${nodePort}`;
      if (nodePorts.has(k)) errs.push(duplicate(childPath(indexPath('spec.ports', i), 'nodePort'), nodePort));
      nodePorts.add(k);
    }
    const k = `${protocol}/${String(p?.port)}`;
    if (portKeys.has(k)) errs.push(duplicate(indexPath('spec.ports', i), { protocol, port: p?.port }));
    portKeys.add(k);
  });
  if (spec?.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts !== null && type !== 'LoadBalancer') {
    errs.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** []core.IPFamily as Go's %#v prints it. */
function familiesValue(spec: JsonObject | undefined): GoLiteral {
  const fams = arrayAt(spec, 'ipFamilies').map((f) => JSON.stringify(String(f)));
  return new GoLiteral(Array.isArray(spec?.ipFamilies) ? `[]core.IPFamily{${fams.join(', ')}}` : '[]core.IPFamily(nil)');
}

/** validateUpgradeDowngradeIPFamilies: the primary family never changes; dropping one needs SingleStack. */
function validateUpgradeDowngradeIPFamilies(spec: JsonObject | undefined, oldSpec: JsonObject | undefined): FieldError[] {
  if (serviceType(spec) === 'ExternalName' || serviceType(oldSpec) === 'ExternalName') return [];
  if (isHeadless(spec) !== isHeadless(oldSpec) || isHeadless(spec)) return [];
  const next = arrayAt(spec, 'ipFamilies').map(String);
  const prev = arrayAt(oldSpec, 'ipFamilies').map(String);
  const errs: FieldError[] = [];
  const first = indexPath('spec.ipFamilies', 0);
  if (prev.length === next.length) {
    prev.forEach((f, i) => {
      if (f !== next[i]) errs.push(invalid(first, familiesValue(spec), 'may not change once set'));
    });
  } else if (prev.length > next.length) {
    if (clusterIPs(spec).length === 0) errs.push(invalid(first, familiesValue(spec), 'primary ipFamily can not be unset'));
    if (next.length > 0 && next[0] !== prev[0]) errs.push(invalid(first, clusterIPs(spec), 'may not change once set'));
    if (next.length === 1 && spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid('spec.ipFamilyPolicy', spec?.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (prev.length > 0 && next.length > 0 && next[0] !== prev[0]) {
    errs.push(invalid(first, clusterIPs(spec), 'may not change once set'));
  }
  return errs;
}

/** validateUpgradeDowngradeClusterIPs and ...IPFamilies: the primary cluster IP and family never change once set. */
export function validateServiceUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const oldSpec = asObject(old.spec);
  return [...validateUpgradeDowngradeClusterIPs(spec, oldSpec), ...validateUpgradeDowngradeIPFamilies(spec, oldSpec)];
}

function validateUpgradeDowngradeClusterIPs(spec: JsonObject | undefined, oldSpec: JsonObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!needsClusterIP(spec) || !needsClusterIP(oldSpec)) return errs;
  if (isHeadless(spec) && isHeadless(oldSpec)) return errs;
  const next = clusterIPs(spec);
  const prev = clusterIPs(oldSpec);
  const path = (i: number): string => indexPath('spec.clusterIPs', i);
  if (prev.length === next.length) {
    prev.forEach((ip, i) => {
      if (ip !== next[i]) errs.push(invalid(path(i), next, 'may not change once set'));
    });
  } else if (prev.length > next.length) {
    if (next.length === 0) errs.push(invalid(path(0), next, 'primary clusterIP can not be unset'));
    if (prev.length > 0 && next.length > 0 && next[0] !== prev[0]) errs.push(invalid(path(0), next, 'may not change once set'));
    if (next.length === 1 && spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid('spec.ipFamilyPolicy', spec?.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (prev.length > 0 && next[0] !== prev[0]) {
    errs.push(invalid(path(0), next, 'may not change once set'));
  }
  return errs;
}
