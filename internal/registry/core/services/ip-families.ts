/**
 * kube's initIPFamilyFields (pkg/registry/core/service/storage/alloc.go): before any address is
 * allocated, a Service's ipFamilyPolicy is defaulted (the old policy on update, RequireDualStack
 * for a headless Service without selector, else SingleStack), its ipFamilies are inferred from
 * the cluster IPs it names and completed from the cluster's families, and the combinations kube
 * refuses are refused with kube's messages. Mutates the spec; returns the errors (none = go on).
 */
import { GoLiteral, indexPath, invalid, type FieldError } from '../../../validation/field-error.js';
import { arrayAt, asObject, stringAt, type JsonObject } from '../shared/json-value.js';
import { validateServiceClusterIPsRelatedFields } from '../shared/service-validation.js';
import { familyOfIP, type IPFamily } from './service-cidr.js';

/** The cluster's service IP families: what --service-cluster-ip-range configured. */
export interface ClusterIPFamilies {
  readonly configured: ReadonlySet<IPFamily>;
  /** The family of --service-cluster-ip-range[0]. */
  readonly defaultFamily: IPFamily;
}

const strings = (spec: JsonObject | undefined, key: string): string[] => arrayAt(spec, key).map((v) => (typeof v === 'string' ? v : ''));

/** A bad value rendered as kube prints a *IPFamilyPolicy (the string, or null). */
function policyValue(spec: JsonObject): unknown {
  return typeof spec.ipFamilyPolicy === 'string' ? new GoLiteral(JSON.stringify(spec.ipFamilyPolicy)) : null;
}

const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);
const other = (f: string): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');

/** kube's isMatchingPreferDualStackClusterIPFields: a PreferDualStack Service left as it was. */
function matchingPreferDualStack(spec: JsonObject, old: JsonObject | undefined): boolean {
  if (!old || spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) return false;
  const type = stringAt(spec, 'type') || 'ClusterIP';
  if ((stringAt(old, 'type') || 'ClusterIP') !== type) return false;
  if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(type)) return false;
  if (spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  if (old.ipFamilyPolicy !== undefined && old.ipFamilyPolicy !== null && old.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameList(strings(old, 'clusterIPs'), strings(spec, 'clusterIPs')) && sameList(strings(old, 'ipFamilies'), strings(spec, 'ipFamilies'));
}

/** initIPFamilyFields for spec (old is the stored spec on update). */
export function initIPFamilyFields(spec: JsonObject, old: JsonObject | undefined, cluster: ClusterIPFamilies): FieldError[] {
  if ((stringAt(spec, 'type') || 'ClusterIP') === 'ExternalName') return [];
  if (matchingPreferDualStack(spec, old)) return [];
  const selectorless = Object.keys(asObject(spec.selector) ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    if (old && typeof old.ipFamilyPolicy === 'string') spec.ipFamilyPolicy = old.ipFamilyPolicy;
    else if (stringAt(spec, 'clusterIP') === 'None' && selectorless) spec.ipFamilyPolicy = 'RequireDualStack';
    else spec.ipFamilyPolicy = 'SingleStack';
  }
  const pre = validateServiceClusterIPsRelatedFields(spec);
  if (pre.length > 0) return pre;
  const errs: FieldError[] = [];
  const policy = spec.ipFamilyPolicy;
  if (old) {
    if (policy === 'SingleStack') {
      // With the IPs and families unchanged, SingleStack is clear intent: keep the primary only.
      if (sameList(strings(old, 'clusterIPs'), strings(spec, 'clusterIPs')) && strings(spec, 'clusterIPs').length > 1) spec.clusterIPs = strings(spec, 'clusterIPs').slice(0, 1);
      if (sameList(strings(old, 'ipFamilies'), strings(spec, 'ipFamilies')) && strings(spec, 'ipFamilies').length > 1) spec.ipFamilies = strings(spec, 'ipFamilies').slice(0, 1);
    } else {
      const ips = strings(spec, 'clusterIPs');
      const fams = strings(spec, 'ipFamilies');
      if (ips.length > 0 && ips.length < strings(old, 'clusterIPs').length) {
        errs.push(invalid('spec.ipFamilyPolicy', policyValue(spec), "must be 'SingleStack' to release the secondary cluster IP"));
      }
      if (fams.length > 0 && fams.length < strings(old, 'ipFamilies').length) {
        errs.push(invalid('spec.ipFamilyPolicy', policyValue(spec), "must be 'SingleStack' to release the secondary IP family"));
      }
    }
  }
  if (policy === 'SingleStack') {
    if (strings(spec, 'clusterIPs').length === 2) {
      errs.push(invalid('spec.ipFamilyPolicy', policyValue(spec), "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    }
    if (strings(spec, 'ipFamilies').length === 2) {
      errs.push(invalid('spec.ipFamilyPolicy', policyValue(spec), "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
  }
  const ips = strings(spec, 'clusterIPs');
  for (let i = 0; i < ips.length; i++) {
    const ip = ips[i] as string;
    if (ip === 'None') break;
    const fam = familyOfIP(ip) ?? 'unknown';
    const families = strings(spec, 'ipFamilies');
    if (i >= families.length) {
      if (!cluster.configured.has(fam as IPFamily)) errs.push(invalid(indexPath('spec.clusterIPs', i), ips, `${fam} is not configured on this cluster`));
      else spec.ipFamilies = [...families, fam];
    }
  }
  if (errs.length > 0) return errs;
  // Headless without selector: any families, even on a single-stack cluster.
  if (stringAt(spec, 'clusterIP') === 'None' && selectorless) {
    if (strings(spec, 'ipFamilies').length === 0) spec.ipFamilies = [cluster.defaultFamily];
    const families = strings(spec, 'ipFamilies');
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') spec.ipFamilies = [...families, other(families[0] as string)];
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack' && cluster.configured.size < 2) {
    errs.push(invalid('spec.ipFamilyPolicy', policyValue(spec), 'this cluster is not configured for dual-stack services'));
  }
  strings(spec, 'ipFamilies').forEach((f, i) => {
    if (!cluster.configured.has(f as IPFamily)) errs.push(invalid(indexPath('spec.ipFamilies', i), new GoLiteral(JSON.stringify(f)), 'not configured on this cluster'));
  });
  if (errs.length > 0) return errs;
  if (strings(spec, 'ipFamilies').length === 0) spec.ipFamilies = [cluster.defaultFamily];
  const families = strings(spec, 'ipFamilies');
  if (spec.ipFamilyPolicy !== 'SingleStack' && families.length === 1 && cluster.configured.size === 2) spec.ipFamilies = [...families, other(families[0] as string)];
  return [];
}
