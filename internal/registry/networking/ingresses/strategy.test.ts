import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '../../shared/testing-messages.js';
import { validateIngress } from './strategy.js';

const backend = { service: { name: 'web', port: { number: 80 } } };

describe('Ingress validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a default backend', { defaultBackend: backend }, []],
    ['neither backend nor rules', {}, ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']],
    ['a backend without a port', { defaultBackend: { service: { name: 'web' } } }, ['spec.defaultBackend: Required value: port name or number is required']],
    ['both port name and number', { defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } }, ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']],
    [
      'a path without a type',
      { rules: [{ host: 'example.com', http: { paths: [{ path: '/', backend }] } }] },
      ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified'],
    ],
    [
      'a relative prefix path',
      { rules: [{ http: { paths: [{ path: 'api', pathType: 'Prefix', backend }] } }] },
      ['spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path'],
    ],
    ['an IP as host', { rules: [{ host: '10.0.0.1', http: { paths: [{ path: '/', pathType: 'Exact', backend }] } }] }, ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address']],
    ['a wildcard host', { rules: [{ host: '*.example.com', http: { paths: [{ path: '/', pathType: 'Exact', backend }] } }] }, []],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateIngress({ metadata: { name: 'i' }, spec })), want));
  }
});
