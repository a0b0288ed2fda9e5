import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '../../registry/shared/testing-messages.js';
import { validateCABundle, validateWebhookService, validateWebhookURL } from './conversion.js';

// A self-signed CA certificate (the one the built-in stubs use).
const caPEM = `-----BEGIN CERTIFICATE-----
MIIBBDCBt6ADAgECAgEAMAUGAytlcDAQMQ4wDAYDVQQDEwVyb290MTAiGA8wMDAx
MDEwMTAwMDAwMFoYDzAwMDEwMTAxMDAwMDAwWjAQMQ4wDAYDVQQDEwVyb290MTAq
MAUGAytlcAMhAF2MoFeGa97gK2NGT1h6p1/a1GlMXAXbcjI/OShyIobPozIwMDAP
BgNVHRMBAf8EBTADAQH/MB0GA1UdDgQWBBTWDdK2CNQiHqRjPaAWYPPtIykQgjAF
BgMrZXADQQCtom9WGl7m2SAa4tXM9Soo/mbInBsRhn187BMoqTAHInHchKup5/3y
l1tYJSZZsEXnXrCvw2qLCBNif6+2YYgE
-----END CERTIFICATE-----
`;

describe('conversion webhook client config', () => {
  it('accepts a caBundle of PEM certificates and refuses other bytes in client-go words', () => {
    assert.deepEqual(validateCABundle('caBundle', Buffer.from(caPEM).toString('base64')), []);
    const broken = Buffer.from(caPEM.replace('MIIBBDCBt6AD', 'MIIBBDCBt6AA')).toString('base64');
    assert.match(messages(validateCABundle('caBundle', broken))[0] ?? '', /^caBundle: Invalid value: ".*": unable to load root certificates: failed to parse certificate: /);
    assert.deepEqual(messages(validateCABundle('caBundle', Buffer.from('junk').toString('base64'))), [
      'caBundle: Invalid value: "anVuaw==": unable to load root certificates: unable to parse bytes as PEM block',
    ]);
  });

  it('checks URLs as ValidateWebhookURL does', () => {
    assert.deepEqual(validateWebhookURL('url', 'https://conv.example.com:8443/convert'), []);
    assert.deepEqual(messages(validateWebhookURL('url', 'https://a:b@conv.example.com')), ['url: Invalid value: "a:b": user information is not permitted in the URL']);
    assert.deepEqual(messages(validateWebhookURL('url', '/convert')), [
      "url: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'url: Invalid value: "": host must be specified; desired format: https://host[/path]',
    ]);
  });

  it('checks services as kube does, name and namespace swapped as kube swaps them', () => {
    assert.deepEqual(validateWebhookService('svc', { namespace: 'ns', name: 'conv', path: '/convert/v1/', port: 443 }), []);
    assert.deepEqual(messages(validateWebhookService('svc', { namespace: '', name: 'conv', path: '//' })), ['svc.name: Required value', 'svc.path: Invalid value: "//": segment[0] may not be empty']);
    assert.deepEqual(messages(validateWebhookService('svc', { namespace: 'ns', name: 'conv', path: '/Convert' })), [
      "svc.path: Invalid value: \"/Convert\": segment[0]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });
});
