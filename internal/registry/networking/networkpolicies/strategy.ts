/**
 * NetworkPolicy rules (kube's pkg/registry/networking/networkpolicy): a valid pod selector,
 * peers that are selectors or an IP block (not both), ports with known protocols and ranges,
 * at most the two known policy types, and generation tracking.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { validateLabelSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { isCIDR, validateCIDR } from '../../core/shared/ip.js';
import { isValidPortName, isValidPortNum } from '../../core/shared/ports.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

const protocols = ['TCP', 'UDP', 'SCTP'];

function validatePort(port: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = port.protocol;
  if (protocol !== undefined && protocol !== null && (typeof protocol !== 'string' || !protocols.includes(protocol))) {
    errs.push(notSupported(`${path}.protocol`, protocol, protocols));
  }
  const p = port.port;
  const end = port.endPort;
  const hasEnd = end !== undefined && end !== null;
  if (p === undefined || p === null) {
    if (hasEnd) errs.push(invalid(`${path}.endPort`, end, 'may not be specified when `port` is not specified'));
  } else if (typeof p === 'number') {
    errs.push(...isValidPortNum(p).map((m) => invalid(`${path}.port`, p, m)));
    if (hasEnd) {
      if (typeof end === 'number' && end < p) errs.push(invalid(`${path}.endPort`, p, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(end).map((m) => invalid(`${path}.endPort`, end, m)));
    }
  } else {
    if (hasEnd) errs.push(invalid(`${path}.endPort`, end, 'may not be specified when `port` is non-numeric'));
    errs.push(...isValidPortName(String(p)).map((m) => invalid(`${path}.port`, p, m)));
  }
  return errs;
}

function validatePeer(peer: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const f of ['podSelector', 'namespaceSelector']) {
    const sel = objectAt(peer, f);
    if (!sel) continue;
    count++;
    errs.push(...validateLabelSelector(sel as LabelSelectorObject, {}, `${path}.${f}`));
  }
  const block = objectAt(peer, 'ipBlock');
  if (block) {
    count++;
    const cidr = stringAt(block, 'cidr');
    if (!cidr) errs.push(required(`${path}.ipBlock.cidr`, ''));
    else errs.push(...validateCIDR(`${path}.ipBlock.cidr`, cidr));
    arrayAt(block, 'except').forEach((e, i) => {
      const ep = indexPath(`${path}.ipBlock.except`, i);
      if (typeof e !== 'string' || !isCIDR(e)) errs.push(...validateCIDR(ep, String(e)));
    });
  }
  if (count === 0) errs.push(required(path, 'must specify a peer'));
  else if (count > 1 && block) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateRules(rules: unknown[], path: string, peerKey: string): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((raw, i) => {
    const rule = asObject(raw) ?? {};
    const rp = indexPath(path, i);
    arrayAt(rule, 'ports').forEach((p, j) => errs.push(...validatePort(asObject(p) ?? {}, indexPath(`${rp}.ports`, j))));
    arrayAt(rule, peerKey).forEach((p, j) => errs.push(...validatePeer(asObject(p) ?? {}, indexPath(`${rp}.${peerKey}`, j))));
  });
  return errs;
}

/** ValidateNetworkPolicySpec without metadata. Never mutates. */
export function validateNetworkPolicy(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validateLabelSelector((objectAt(spec, 'podSelector') ?? {}) as LabelSelectorObject, {}, 'spec.podSelector');
  errs.push(...validateRules(arrayAt(spec, 'ingress'), 'spec.ingress', 'from'));
  errs.push(...validateRules(arrayAt(spec, 'egress'), 'spec.egress', 'to'));
  const types = arrayAt(spec, 'policyTypes');
  if (types.length > 2) return [...errs, invalid('spec.policyTypes', types, 'may not specify more than two policyTypes')];
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(notSupported(indexPath('spec.policyTypes', i), t, ['Ingress', 'Egress']));
  });
  return errs;
}

/** The NetworkPolicy strategy. */
export const networkPolicyStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  validate: validateNetworkPolicy,
});

/**
 * networking/v1 SetDefaults_NetworkPolicy: policyTypes [Ingress], plus Egress when egress rules
 * exist, and TCP for every port without a protocol. Mutates obj.
 */
export function defaultNetworkPolicy(obj: KubeObject): void {
  if (obj.spec === undefined || obj.spec === null) obj.spec = {};
  const spec = asObject(obj.spec);
  if (!spec) return;
  for (const key of ['ingress', 'egress']) {
    for (const rule of arrayAt(spec, key)) {
      for (const port of arrayAt(asObject(rule), 'ports')) {
        const p = asObject(port);
        if (p && (p.protocol === undefined || p.protocol === null)) p.protocol = 'TCP';
      }
    }
  }
  if (arrayAt(spec, 'policyTypes').length === 0) {
    spec.policyTypes = arrayAt(spec, 'egress').length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}
