/**
 * EndpointSlice rules (kube's pkg/registry/discovery/endpointslice): a known address type that
 * never changes, endpoints with 1 to 100 addresses valid for that type, valid host and node
 * names, uniquely named ports with known protocols, and a generation that grows whenever
 * anything but metadata, or the labels, change.
 */
import { isIP } from 'node:net';
import type { KubeObject } from '../../../../api/meta/types.js';
import { validateLabels } from '../../../selectors/label-selector-object.js';
import { duplicate, indexPath, invalid, notSupported, required, tooMany, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../validation/label-values.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { arrayAt, asObject, objectAt } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const protocols = ['SCTP', 'TCP', 'UDP'];
const maxEndpoints = 1000;
const maxAddresses = 100;
const maxPorts = 20000;
const maxTopologyLabels = 16;

function validateAddress(type: unknown, address: string, path: string): FieldError[] {
  if (type === 'IPv4') return isIP(address) === 4 ? [] : [invalid(path, address, 'must be a valid IPv4 address')];
  if (type === 'IPv6') return isIP(address) === 6 ? [] : [invalid(path, address, 'must be a valid IPv6 address')];
  if (type === 'FQDN') return isDNS1123Subdomain(address).map((m) => invalid(path, address, m));
  return [];
}

/** ValidateEndpointSlice without metadata (the address type is checked separately). Never mutates. */
export function validateEndpointSlice(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const endpoints = arrayAt(obj, 'endpoints');
  if (endpoints.length > maxEndpoints) errs.push(tooMany('endpoints', endpoints.length, maxEndpoints));
  else {
    endpoints.forEach((raw, i) => {
      const ep = asObject(raw) ?? {};
      const path = indexPath('endpoints', i);
      const addresses = arrayAt(ep, 'addresses');
      if (addresses.length === 0) errs.push(required(`${path}.addresses`, 'must contain at least 1 address'));
      else if (addresses.length > maxAddresses) errs.push(tooMany(`${path}.addresses`, addresses.length, maxAddresses));
      addresses.forEach((a, j) => errs.push(...validateAddress(obj.addressType, String(a), indexPath(`${path}.addresses`, j))));
      if (typeof ep.nodeName === 'string') errs.push(...isDNS1123Subdomain(ep.nodeName).map((m) => invalid(`${path}.nodeName`, ep.nodeName, m)));
      const topology = objectAt(ep, 'deprecatedTopology');
      if (topology && Object.keys(topology).length > maxTopologyLabels) errs.push(tooMany(`${path}.deprecatedTopology`, Object.keys(topology).length, maxTopologyLabels));
      errs.push(...validateLabels(topology as Record<string, string> | undefined, `${path}.deprecatedTopology`));
      if (typeof ep.hostname === 'string') errs.push(...isDNS1123Label(ep.hostname).map((m) => invalid(`${path}.hostname`, ep.hostname, m)));
    });
  }
  const ports = arrayAt(obj, 'ports');
  if (ports.length > maxPorts) return [...errs, tooMany('ports', ports.length, maxPorts)];
  const names = new Set<string>();
  ports.forEach((raw, i) => {
    const port = asObject(raw) ?? {};
    const path = indexPath('ports', i);
    const name = typeof port.name === 'string' ? port.name : '';
    if (name) errs.push(...isDNS1123Label(name).map((m) => invalid(`${path}.name`, name, m)));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    names.add(name);
    const protocol = port.protocol;
    if (protocol === undefined || protocol === null) errs.push(required(`${path}.protocol`, ''));
    else if (typeof protocol !== 'string' || !protocols.includes(protocol)) errs.push(notSupported(`${path}.protocol`, protocol, protocols));
    if (typeof port.appProtocol === 'string') errs.push(...isQualifiedName(port.appProtocol).map((m) => invalid(`${path}.appProtocol`, port.appProtocol, m)));
  });
  return errs;
}

function validateAddressType(obj: KubeObject): FieldError[] {
  const type = obj.addressType;
  if (type === undefined || type === null || type === '') return [required('addressType', '')];
  if (typeof type !== 'string' || !addressTypes.includes(type)) return [notSupported('addressType', type, addressTypes)];
  return [];
}

/** The EndpointSlice strategy. */
export const endpointSliceStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  prepareForUpdate(_ctx, obj, old) {
    // Labels select slices for services: changing them is a new generation too.
    if (!semanticEqual(obj.metadata.labels, old.metadata.labels)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: (obj) => [...validateEndpointSlice(obj), ...validateAddressType(obj)],
  validateUpdate: (obj, old) => [...validateEndpointSlice(obj), ...validateImmutableField(obj.addressType, old.addressType, 'addressType')],
});

/** discovery/v1 SetDefaults_EndpointPort: each port's name "" and protocol TCP when unset. Mutates obj. */
export function defaultEndpointSlice(obj: KubeObject): void {
  for (const raw of arrayAt(obj, 'ports')) {
    const port = asObject(raw);
    if (!port) continue;
    if (port.name === undefined || port.name === null) port.name = '';
    if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
  }
}
