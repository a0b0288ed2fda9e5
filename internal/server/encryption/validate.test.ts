import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeEncryptionConfiguration } from './decode.js';
import { validateEncryptionConfiguration } from './validate.js';

const k16 = Buffer.alloc(16, 1).toString('base64');
const k32 = Buffer.alloc(32, 2).toString('base64');

function errorsOf(yaml: string, reload = false): string[] {
  return validateEncryptionConfiguration(decodeEncryptionConfiguration(Buffer.from(`apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n${yaml}`)), reload);
}

describe('EncryptionConfiguration validation (kube messages)', () => {
  it('accepts a valid configuration with every provider', () => {
    assert.deepEqual(
      errorsOf(`resources:
- resources: ["secrets", "configmaps"]
  providers:
  - aescbc: {keys: [{name: key1, secret: ${k32}}]}
  - aesgcm: {keys: [{name: key1, secret: ${k16}}]}
  - secretbox: {keys: [{name: key1, secret: ${k32}}]}
  - kms: {apiVersion: v2, name: vault, endpoint: unix:///tmp/kms.sock, timeout: 3s}
  - identity: {}
- resources: ["*.apps", "*.*"]
  providers: [{identity: {}}]`),
      // "*.apps" with "*.*" overlaps (kube refuses the pair in one list).
      ['resources[1].resources: Invalid value: []string{"*.apps", "*.*"}: using overlapping resources such as \'secrets\' and \'*.\' in the same resource list is not allowed as they will be masked'],
    );
  });

  it('checks keys: count, name, secret, base64 and length', () => {
    assert.deepEqual(errorsOf(`resources:
- resources: [secrets]
  providers:
  - aescbc: {keys: []}
  - aesgcm: {keys: [{name: "", secret: ""}]}
  - secretbox: {keys: [{name: a, secret: "not base64!"}, {name: b, secret: ${k16}}]}
  - aescbc: {keys: [{name: c, secret: ${Buffer.alloc(20).toString('base64')}}]}`), [
      'resources[0].providers[0].aescbc.keys: Required value: at least one keys is required',
      'resources[0].providers[1].aesgcm.keys[0].name: Required value: name is a mandatory field for a key',
      'resources[0].providers[1].aesgcm.keys[0].secret: Required value: secret is a mandatory field for a key',
      'resources[0].providers[2].secretbox.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
      'resources[0].providers[2].secretbox.keys[1].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]',
      'resources[0].providers[3].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 20, expected one of [16 24 32]',
    ]);
  });

  it('checks resource names and lists', () => {
    assert.deepEqual(errorsOf(`resources:
- resources: []
  providers: []
- resources: [Secrets, "*", serviceipallocations, events.events.k8s.io, deployments.extensions, "pods.*", secrets, secrets]
  providers: [{identity: {}}]`), [
      'resources[0].resources: Required value: at least one resources[0].resources is required',
      'resources[0].providers: Required value: at least one resources[0].providers is required',
      'resources[1].resources: Invalid value: []string{"Secrets", "*", "serviceipallocations", "events.events.k8s.io", "deployments.extensions", "pods.*", "secrets", "secrets"}: the same resource cannot be specified multiple times',
      'resources[1].resources: Invalid value: []string{"Secrets", "*", "serviceipallocations", "events.events.k8s.io", "deployments.extensions", "pods.*", "secrets", "secrets"}: using overlapping resources such as \'secrets\' and \'*.\' in the same resource list is not allowed as they will be masked',
      'resources[1].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters',
      'resources[1].resources[1]: Invalid value: "*": use \'*.\' to encrypt all the resources from core API group or *.* to encrypt all resources',
      'resources[1].resources[2]: Invalid value: "serviceipallocations": resources which do not have REST API/s cannot be encrypted',
      "resources[1].resources[3]: Invalid value: \"events.events.k8s.io\": '*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file",
      "resources[1].resources[4]: Invalid value: \"deployments.extensions\": 'extensions' group has been removed and cannot be used for encryption",
      'resources[1].resources[5]: Invalid value: "pods.*": encrypting the same resource across groups is not supported',
    ]);
    assert.deepEqual(errorsOf('resources: []'), ['resources: Required value: at least one resources is required']);
  });

  it('checks providers: none or several in one element', () => {
    const errs = errorsOf(`resources:
- resources: [secrets]
  providers:
  - {}
  - {identity: {}, aescbc: {keys: [{name: a, secret: ${k32}}]}}`);
    assert.equal(errs.length, 2);
    assert.match(errs[0] as string, /^resources\[0\]\.providers\[0\]: Invalid value: .*: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity$/);
    assert.match(errs[1] as string, /^resources\[0\]\.providers\[1\]: Invalid value: .*: more than one provider specified in a single element, should split into different list elements$/);
  });

  it('checks kms: name, duplicates, endpoint, timeout, cachesize, apiVersion', () => {
    assert.deepEqual(errorsOf(`resources:
- resources: [secrets]
  providers:
  - kms: {apiVersion: v2, name: "a:b", endpoint: "tcp://127.0.0.1:1", timeout: 0s, cachesize: 10}
  - kms: {apiVersion: v2, name: "a:b", endpoint: "", timeout: -1s}
  - kms: {apiVersion: v3, name: "", endpoint: unix:///x}
  - kms: {name: v1plugin, endpoint: unix:///y, cachesize: 0}`), [
      'resources[0].providers[0].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain \':\'',
      'resources[0].providers[0].kms.timeout: Invalid value: 0s: timeout should be a positive value',
      'resources[0].providers[0].kms.endpoint: Invalid value: "tcp://127.0.0.1:1": unsupported scheme "tcp" for KMS provider, only unix is supported',
      'resources[0].providers[0].kms.cachesize: Invalid value: 10: cachesize is not supported in v2',
      'resources[0].providers[1].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain \':\'',
      'resources[0].providers[1].kms.name: Invalid value: "a:b": duplicate KMS provider name a:b, names must be unique',
      'resources[0].providers[1].kms.timeout: Invalid value: -1s: timeout should be a positive value',
      'resources[0].providers[1].kms.endpoint: Invalid value: "": endpoint is a mandatory field for a kms',
      'resources[0].providers[2].kms.name: Required value: name is a mandatory field for a provider',
      'resources[0].providers[2].kms.apiVersion: Invalid value: "v3": unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported',
      // apiVersion defaults to v1, whose cachesize must not be 0.
      'resources[0].providers[3].kms.cachesize: Invalid value: 0: cachesize should be a positive value, or negative to disable',
    ]);
    // v1 names need to be unique only with automatic reload.
    const v1Twice = `resources:
- resources: [secrets]
  providers:
  - kms: {name: p, endpoint: unix:///x}
  - kms: {name: p, endpoint: unix:///y}`;
    assert.deepEqual(errorsOf(v1Twice), []);
    assert.deepEqual(errorsOf(v1Twice, true), ['resources[0].providers[1].kms.name: Invalid value: "p": duplicate KMS provider name p, names must be unique']);
  });
});

describe('EncryptionConfiguration decoding (strict, apiVersion and kind)', () => {
  const decode = (text: string): unknown => decodeEncryptionConfiguration(Buffer.from(text));
  it('refuses other kinds and versions, unknown fields and wrong types', () => {
    assert.throws(() => decode('apiVersion: apiserver.config.k8s.io/v1beta1\nkind: EncryptionConfiguration\nresources: []'), {
      message: 'no kind "EncryptionConfiguration" is registered for version "apiserver.config.k8s.io/v1beta1"',
    });
    assert.throws(() => decode('apiVersion: apiserver.config.k8s.io/v1\nresources: []'), /Object 'Kind' is missing/);
    assert.throws(() => decode('apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n  - aescbc: {keys: [{name: a, secret: x, sekret: y}]}\n    identitty: {}'), {
      message: 'strict decoding error: unknown field "resources[0].providers[0].aescbc.keys[0].sekret", unknown field "resources[0].providers[0].identitty"',
    });
    assert.throws(() => decode('apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: secrets'), /json: cannot unmarshal string into Go struct field resources of type \[\]v1.ResourceConfiguration/);
    assert.throws(() => decode('apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers: [{kms: {name: a, endpoint: unix:///x, timeout: soon}}]'), /time: invalid duration "soon"/);
  });

  it('reads JSON too and applies kube defaults to kms', () => {
    const c = decodeEncryptionConfiguration(Buffer.from(JSON.stringify({
      kind: 'EncryptionConfiguration',
      apiVersion: 'apiserver.config.k8s.io/v1',
      resources: [{ resources: ['secrets'], providers: [{ kms: { name: 'a', endpoint: 'unix:///x' } }, { kms: { apiVersion: 'v2', name: 'b', endpoint: 'unix:///y', timeout: '1m' } }] }],
    })));
    assert.deepEqual(c.resources[0]?.providers[0]?.kms, { apiVersion: 'v1', name: 'a', cachesize: 1000, endpoint: 'unix:///x', timeoutMs: 3000 });
    assert.deepEqual(c.resources[0]?.providers[1]?.kms, { apiVersion: 'v2', name: 'b', cachesize: undefined, endpoint: 'unix:///y', timeoutMs: 60000 });
  });
});
