import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage, type FieldError } from '../../../validation/field-error.js';
import { nameValidatorFor } from '../../generic/object-meta-validation.js';
import { requestContext } from '../shared/testing.js';
import { serviceSelectableFields, serviceStatusStrategy, serviceStrategy } from './strategy.js';

const ctx = requestContext('POST', '/api/v1/namespaces/ns/services');
const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
const svc = (spec: Record<string, unknown>, name = 'web'): KubeObject => ({ metadata: { name, namespace: 'ns' }, spec });
const port80 = { port: 80, protocol: 'TCP', targetPort: 8080 };

describe('service strategy: create', () => {
  it('resets status to an empty load balancer and derives clusterIPs from clusterIP', () => {
    const obj = svc({ clusterIP: '10.0.0.10', ports: [port80] });
    obj.status = { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } };
    serviceStrategy.prepareForCreate(ctx, obj);
    assert.deepEqual(obj.status, { loadBalancer: {} });
    assert.deepEqual((obj.spec as Record<string, unknown>).clusterIPs, ['10.0.0.10']);
  });

  it('checks the name as a DNS-1035 label', () => {
    assert.equal(serviceStrategy.nameValidation, 'dns1035-label');
    const nameFn = nameValidatorFor(serviceStrategy.nameValidation);
    assert.deepEqual(nameFn('1web', false), [
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ]);
    assert.deepEqual(nameFn('web-', true), [], 'a generateName may end in a dash');
    assert.deepEqual(serviceStrategy.validate(ctx, { metadata: { generateName: 'web-', name: 'web-x7k2p' }, spec: { ports: [port80] } }), []);
  });

  it('checks ports', () => {
    assert.deepEqual(messages(serviceStrategy.validate(ctx, svc({}))), ['spec.ports: Required value']);
    assert.deepEqual(serviceStrategy.validate(ctx, svc({ clusterIP: 'None', clusterIPs: ['None'] })), []);
    assert.deepEqual(
      messages(serviceStrategy.validate(ctx, svc({ ports: [{ port: 0, protocol: 'HTTP' }, { name: 'b', port: 80, targetPort: 'x--y' }] }))),
      [
        'spec.ports[0].name: Required value',
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        'spec.ports[1].targetPort: Invalid value: "x--y": must not contain consecutive hyphens',
      ],
    );
    assert.deepEqual(messages(serviceStrategy.validate(ctx, svc({ ports: [{ name: 'a', port: 80 }, { name: 'a', port: 80, protocol: 'TCP' }] }))), [
      'spec.ports[1].name: Duplicate value: "a"',
      'spec.ports[1]: Duplicate value: {"protocol":"TCP","port":80}',
    ]);
  });

  it('checks type, externalName and nodePorts', () => {
    assert.deepEqual(messages(serviceStrategy.validate(ctx, svc({ type: 'Magic', ports: [port80] }))), [
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
    assert.deepEqual(messages(serviceStrategy.validate(ctx, svc({ type: 'ExternalName' }))), ['spec.externalName: Required value']);
    assert.deepEqual(serviceStrategy.validate(ctx, svc({ type: 'ExternalName', externalName: 'db.example.com.' })), []);
    assert.deepEqual(messages(serviceStrategy.validate(ctx, svc({ type: 'ClusterIP', ports: [{ ...port80, nodePort: 30080 }] }))), [
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
  });

  it('checks cluster IPs', () => {
    assert.deepEqual(messages(serviceStrategy.validate(ctx, svc({ clusterIP: '10.0.0.300', clusterIPs: ['10.0.0.300'], ports: [port80] }))), [
      'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    assert.deepEqual(messages(serviceStrategy.validate(ctx, svc({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.2'], ports: [port80] }))), [
      'spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: first value must match `clusterIP`',
    ]);
  });
});

describe('service strategy: update', () => {
  const old = svc({ clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10'], type: 'NodePort', ports: [{ name: 'http', ...port80, nodePort: 30080 }] });
  old.status = { loadBalancer: {} };

  it('keeps status and the allocated clusterIP and nodePorts an update leaves out', () => {
    const next = svc({ type: 'NodePort', ports: [{ name: 'http', ...port80 }] });
    next.status = { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } };
    serviceStrategy.prepareForUpdate(ctx, next, old);
    const spec = next.spec as Record<string, any>;
    assert.equal(spec.clusterIP, '10.0.0.10');
    assert.deepEqual(spec.clusterIPs, ['10.0.0.10']);
    assert.equal(spec.ports[0].nodePort, 30080);
    assert.deepEqual(next.status, { loadBalancer: {} });
    assert.deepEqual(serviceStrategy.validateUpdate(ctx, next, old), []);
  });

  it('refuses a changed cluster IP', () => {
    const next = svc({ clusterIP: '10.0.0.99', type: 'NodePort', ports: [{ name: 'http', ...port80 }] });
    serviceStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(messages(serviceStrategy.validateUpdate(ctx, next, old)), ['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.99"}: may not change once set']);
  });

  it('wipes cluster IPs and node ports when switching to ExternalName', () => {
    const next = structuredClone(old);
    const spec = next.spec as Record<string, any>;
    spec.type = 'ExternalName';
    spec.externalName = 'db.example.com';
    serviceStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(spec.clusterIP, undefined);
    assert.equal(spec.clusterIPs, undefined);
    assert.equal(spec.ports[0].nodePort, undefined);
    assert.deepEqual(serviceStrategy.validateUpdate(ctx, next, old), []);
  });

  it('services/status keeps spec but lets metadata change', () => {
    const next = structuredClone(old);
    (next.spec as Record<string, unknown>).type = 'ClusterIP';
    next.metadata.annotations = { a: 'b' };
    next.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } };
    serviceStatusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.spec, old.spec);
    assert.deepEqual(next.metadata.annotations, { a: 'b' });
    assert.deepEqual(next.status, { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } });
  });
});

describe('service field selectors', () => {
  it('exposes spec.clusterIP and spec.type', () => {
    assert.deepEqual(serviceStrategy.selectableFields.extra, ['spec.clusterIP', 'spec.type']);
    assert.deepEqual(serviceSelectableFields(svc({ clusterIP: 'None', type: 'ClusterIP' })), { 'spec.clusterIP': 'None', 'spec.type': 'ClusterIP' });
  });
});
