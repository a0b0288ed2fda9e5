/**
 * Ingress rules (kube's pkg/registry/networking/ingress): a default backend or rules, backends
 * naming a service (DNS-1035 name, a port name or number) or a resource, hosts that are DNS
 * names (a leading "*." allowed), HTTP paths with a path type, generation tracking, and a status
 * (load balancer) written only through ingresses/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { GoNilSlice, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { isValidPortName, isValidPortNum } from '../../core/shared/ports.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { isIP } from 'node:net';
import { defineStrategy } from '../../shared/strategy-factory.js';

const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateBackend(backend: JsonObject, path: string): FieldError[] {
  const resource = objectAt(backend, 'resource');
  const service = objectAt(backend, 'service');
  if (resource && service) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) {
    const errs: FieldError[] = [];
    if (!stringAt(resource, 'kind')) errs.push(required(`${path}.resource.kind`, ''));
    if (!stringAt(resource, 'name')) errs.push(required(`${path}.resource.name`, ''));
    return errs;
  }
  if (!service) return [invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = stringAt(service, 'name');
  if (!name) errs.push(required(`${path}.service.name`, ''));
  else errs.push(...isDNS1035Label(name).map((m) => invalid(`${path}.service.name`, name, m)));
  const port = objectAt(service, 'port');
  const portName = stringAt(port, 'name');
  const portNumber = numberAt(port, 'number') ?? 0;
  if (portName && portNumber !== 0) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName) errs.push(...isValidPortName(portName).map((m) => invalid(`${path}.service.port.name`, portName, m)));
  else if (portNumber !== 0) errs.push(...isValidPortNum(portNumber).map((m) => invalid(`${path}.service.port.number`, portNumber, m)));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

function validateHost(host: string, path: string): FieldError[] {
  if (isIP(host) !== 0) return [invalid(path, host, 'must be a DNS name, not an IP address')];
  if (host.startsWith('*.')) {
    const rest = host.slice(2);
    return isDNS1123Subdomain(rest).length > 0
      ? [invalid(path, host, "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")]
      : [];
  }
  return isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
}

function validateRules(rules: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((raw, i) => {
    const rule = asObject(raw) ?? {};
    const path = indexPath('spec.rules', i);
    const host = stringAt(rule, 'host');
    if (host) errs.push(...validateHost(host, `${path}.host`));
    const http = objectAt(rule, 'http');
    if (!http) return;
    const paths = arrayAt(http, 'paths');
    if (paths.length === 0) errs.push(required(`${path}.http.paths`, ''));
    paths.forEach((rawPath, j) => {
      const p = asObject(rawPath) ?? {};
      const pp = indexPath(`${path}.http.paths`, j);
      const type = p.pathType;
      const value = stringAt(p, 'path');
      if (type === undefined || type === null) errs.push(required(`${pp}.pathType`, 'pathType must be specified'));
      else if (type === 'Exact' || type === 'Prefix') {
        if (!value.startsWith('/')) errs.push(invalid(`${pp}.path`, value, 'must be an absolute path'));
      } else if (type !== 'ImplementationSpecific') errs.push(notSupported(`${pp}.pathType`, type, pathTypes));
      if (type === 'ImplementationSpecific' && value && !value.startsWith('/')) errs.push(invalid(`${pp}.path`, value, 'must be an absolute path'));
      errs.push(...validateBackend(objectAt(p, 'backend') ?? {}, `${pp}.backend`));
    });
  });
  return errs;
}

/** ValidateIngressSpec without metadata. Never mutates. */
export function validateIngress(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const rules = arrayAt(spec, 'rules');
  const defaultBackend = objectAt(spec, 'defaultBackend');
  if (rules.length === 0 && !defaultBackend) {
    errs.push(invalid('spec', spec?.rules === undefined || spec.rules === null ? new GoNilSlice('networking.IngressRule') : [], 'either `defaultBackend` or `rules` must be specified'));
  }
  if (defaultBackend) errs.push(...validateBackend(defaultBackend, 'spec.defaultBackend'));
  errs.push(...validateRules(rules));
  arrayAt(spec, 'tls').forEach((raw, i) => {
    arrayAt(asObject(raw), 'hosts').forEach((h, j) => {
      if (typeof h === 'string') errs.push(...validateHost(h, `${indexPath(`${indexPath('spec.tls', i)}.hosts`, j)}`));
    });
  });
  const className = spec?.ingressClassName;
  if (typeof className === 'string') errs.push(...isDNS1123Subdomain(className).map((m) => invalid('spec.ingressClassName', className, m)));
  return errs;
}

/** The Ingress strategy. */
export const ingressStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  // IngressStatus.loadBalancer is a struct: kube serializes an empty status as {loadBalancer: {}}.
  initialStatus: () => ({ loadBalancer: {} }),
  validate: validateIngress,
});

/** ingresses/status: only status changes. */
export const ingressStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate() {
    return [];
  },
};
