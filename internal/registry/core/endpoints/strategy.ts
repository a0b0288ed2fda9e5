/**
 * Endpoints rules (kube's pkg/registry/core/endpoint): every subset has addresses, addresses are
 * usable IPs (not unspecified, loopback or link-local), hostnames are DNS labels, node names DNS
 * subdomains, and ports are named when there are several.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childPath, indexPath, invalid, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../validation/label-values.js';
import type { Strategy } from '../../generic/strategy.js';
import { validateIP, validateNonSpecialIP } from '../shared/ip.js';
import { arrayAt, asObject, stringAt, type JsonObject } from '../shared/json-value.js';
import { isValidPortNum, validateProtocol } from '../shared/ports.js';

function validateAddress(addr: JsonObject | undefined, path: string): FieldError[] {
  const ip = stringAt(addr, 'ip');
  const ipPath = childPath(path, 'ip');
  const errs = validateIP(ipPath, ip);
  const hostname = stringAt(addr, 'hostname');
  if (hostname) for (const m of isDNS1123Label(hostname)) errs.push(invalid(childPath(path, 'hostname'), hostname, m));
  const nodeName = addr?.nodeName;
  if (typeof nodeName === 'string') for (const m of isDNS1123Subdomain(nodeName)) errs.push(invalid(childPath(path, 'nodeName'), nodeName, m));
  errs.push(...validateNonSpecialIP(ipPath, ip));
  return errs;
}

function validatePort(port: JsonObject | undefined, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(port, 'name');
  if (requireName && !name) errs.push(required(childPath(path, 'name'), ''));
  else if (name) for (const m of isDNS1123Label(name)) errs.push(invalid(childPath(path, 'name'), name, m));
  for (const m of isValidPortNum(port?.port)) errs.push(invalid(childPath(path, 'port'), port?.port ?? 0, m));
  errs.push(...validateProtocol(port?.protocol, childPath(path, 'protocol')));
  const appProtocol = port?.appProtocol;
  if (typeof appProtocol === 'string') for (const m of isQualifiedName(appProtocol)) errs.push(invalid(childPath(path, 'appProtocol'), appProtocol, m));
  return errs;
}

/** validateEndpointSubsets. */
export function validateEndpoints(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  arrayAt(obj as JsonObject, 'subsets').forEach((raw, i) => {
    const ss = asObject(raw);
    const p = indexPath('subsets', i);
    const addresses = arrayAt(ss, 'addresses');
    const notReady = arrayAt(ss, 'notReadyAddresses');
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateAddress(asObject(a), indexPath(childPath(p, 'addresses'), j))));
    notReady.forEach((a, j) => errs.push(...validateAddress(asObject(a), indexPath(childPath(p, 'notReadyAddresses'), j))));
    const ports = arrayAt(ss, 'ports');
    ports.forEach((port, j) => errs.push(...validatePort(asObject(port), ports.length > 1, indexPath(childPath(p, 'ports'), j))));
  });
  return errs;
}

/** The Endpoints strategy. */
export const endpointsStrategy = {
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: false,
  nameValidation: 'subdomain',
  selectableFields: { extra: [], style: 'meta' },
  prepareForCreate(_ctx, _obj) {},
  validate(_ctx, obj) {
    return validateEndpoints(obj);
  },
  prepareForUpdate(_ctx, _obj, _old) {},
  validateUpdate(_ctx, obj, _old) {
    return validateEndpoints(obj);
  },
} satisfies Strategy;
