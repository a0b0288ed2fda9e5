import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { newNotFound } from '../../../apierrors/factories.js';
import type { StatusError } from '../../../apierrors/status-error.js';
import type { ServiceAccountTokenConfig } from '../../../serviceaccount/config.js';
import { publicKeyEntry } from '../../../serviceaccount/keys.js';
import { TokenGenerator } from '../../../serviceaccount/token-generator.js';
import type { Storage } from '../../../storage/interface.js';
import type { RestStorage } from '../../interface.js';
import { requestContext } from '../shared/testing.js';
import { serviceAccountsModule } from './store.js';
import { TokenRequestStorage, validateTokenRequest } from './token.js';
import { fieldErrorsMessage } from '../../../validation/field-error.js';

const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const config: ServiceAccountTokenConfig = {
  issuers: ['https://issuer'],
  apiAudiences: ['https://issuer'],
  verificationKeys: [publicKeyEntry(key.publicKey)],
  generator: new TokenGenerator('https://issuer', key.privateKey),
  legacyGenerator: new TokenGenerator('kubernetes/serviceaccount', key.privateKey),
  maxExpirationSeconds: 0,
  extendExpiration: true,
  lookup: true,
};

function objects(list: Record<string, KubeObject>): (group: string, resource: string) => RestStorage {
  return (_g, resource) => ({
    get: async (ctx, name) => {
      const obj = list[`${resource}/${ctx.requestInfo.namespace}/${name}`];
      if (!obj) throw newNotFound({ group: '', resource }, name);
      return obj;
    },
  });
}

const sa: KubeObject = { metadata: { name: 'robot', namespace: 'ns', uid: 'sa-uid' } };
const ctx = () => requestContext('POST', '/api/v1/namespaces/ns/serviceaccounts/robot/token');
const payload = (token: string): Record<string, any> => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());

async function status(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return { code: (err as StatusError).code, message: (err as Error).message };
  }
  throw new Error('expected a StatusError');
}

describe('serviceaccounts/token', () => {
  it('is served only when the server issues tokens', () => {
    // The store is only built here, never used: no storage is needed.
    const deps = { storage: {} as Storage, serviceClusterIPRange: '10.0.0.0/24' };
    assert.deepEqual(Object.keys(serviceAccountsModule(deps)[0]!.subresources), []);
    const served = serviceAccountsModule({ ...deps, serviceAccountTokens: config, storageOf: () => undefined })[0]!.subresources;
    assert.deepEqual(Object.keys(served), ['token']);
  });

  it("validates expirationSeconds with kube's bounds", () => {
    assert.equal(fieldErrorsMessage(validateTokenRequest({ expirationSeconds: 599 })), 'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    assert.equal(fieldErrorsMessage(validateTokenRequest({ expirationSeconds: 2 ** 32 + 1 })), 'spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds');
    assert.deepEqual(validateTokenRequest({ expirationSeconds: 600 }), []);
  });

  it('binds a pod-bound token to the node the pod runs on, by name alone when the node is gone', async () => {
    const pod = { metadata: { name: 'p', namespace: 'ns', uid: 'pu' }, spec: { serviceAccountName: 'robot', nodeName: 'n1' } };
    const withNode = new TokenRequestStorage(objects({ 'serviceaccounts/ns/robot': sa })('', 'serviceaccounts'), config, objects({ 'pods/ns/p': pod, 'nodes//n1': { metadata: { name: 'n1', uid: 'nu' } } }));
    const spec = { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } };
    const out = await withNode.create(ctx(), { metadata: {}, spec }, { dryRun: false });
    assert.deepEqual(payload((out.status as { token: string }).token)['kubernetes.io'].node, { name: 'n1', uid: 'nu' });
    const noNode = new TokenRequestStorage(objects({ 'serviceaccounts/ns/robot': sa })('', 'serviceaccounts'), config, objects({ 'pods/ns/p': pod }));
    const out2 = await noNode.create(ctx(), { metadata: {}, spec }, { dryRun: false });
    assert.deepEqual(payload((out2.status as { token: string }).token)['kubernetes.io'].node, { name: 'n1' });
  });

  it('binds to nodes; refuses a namespace that is not the path\'s', async () => {
    const storage = new TokenRequestStorage(objects({ 'serviceaccounts/ns/robot': sa })('', 'serviceaccounts'), config, objects({ 'nodes//n1': { metadata: { name: 'n1', uid: 'nu' } } }));
    const out = await storage.create(ctx(), { metadata: {}, spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n1', uid: 'nu' } } }, { dryRun: false });
    assert.deepEqual(payload((out.status as { token: string }).token)['kubernetes.io'].node, { name: 'n1', uid: 'nu' });
    assert.deepEqual(await status(storage.create(ctx(), { metadata: { namespace: 'elsewhere' }, spec: {} }, { dryRun: false })), {
      code: 422,
      message: 'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.namespace: Invalid value: "elsewhere": must match the service account namespace if specified',
    });
    assert.deepEqual(await status(storage.create(ctx(), { metadata: {}, spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'gone' } } }, { dryRun: false })), {
      code: 404,
      message: 'nodes "gone" not found',
    });
  });

  it('runs validating admission on the defaulted request before anything is issued', async () => {
    const storage = new TokenRequestStorage(objects({ 'serviceaccounts/ns/robot': sa })('', 'serviceaccounts'), config, objects({}));
    let seen: KubeObject | undefined;
    await assert.rejects(
      storage.create(ctx(), { metadata: {}, spec: {} }, { dryRun: false }, (_c, obj) => {
        seen = obj;
        throw new Error('denied');
      }),
      { message: 'denied' },
    );
    assert.deepEqual(seen?.spec, { audiences: ['https://issuer'], expirationSeconds: 3600 });
    assert.equal(seen?.metadata.name, 'robot');
  });
});
