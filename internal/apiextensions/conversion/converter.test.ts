import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { StatusError } from '../../apierrors/status-error.js';
import { buildConverter, ConversionError } from './index.js';

const crd = (conversion?: Record<string, unknown>) =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', versions: [{ name: 'v1' }, { name: 'v2' }, { name: 'v3beta1' }], ...(conversion ? { conversion } : {}) },
  }) as KubeObject;

const widget = (apiVersion: string, name = 'a') =>
  ({ apiVersion, kind: 'Widget', metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { size: 3 } }) as KubeObject;

const noStorage = { storageOf: () => undefined };

describe('CR conversion, strategy None', () => {
  it('changes only apiVersion, to every version of the CRD, without touching its input', async () => {
    const c = buildConverter(crd({ strategy: 'None' }), noStorage);
    const input = widget('example.com/v1');
    const frozen = structuredClone(input);
    for (const v of ['v2', 'v3beta1', 'v1']) {
      const [out] = await c.convert([input], `example.com/${v}`);
      assert.deepEqual(out, { ...frozen, apiVersion: `example.com/${v}` });
    }
    assert.deepEqual(input, frozen);
    // An object already in the version is the same object.
    assert.equal((await c.convert([input], 'example.com/v1'))[0], input);
  });

  it('is the default strategy and converts lists item by item', async () => {
    const c = buildConverter(crd(), noStorage);
    const out = await c.convert([widget('example.com/v1', 'a'), widget('example.com/v2', 'b')], 'example.com/v2', { list: true });
    assert.deepEqual(
      out.map((o) => o.apiVersion),
      ['example.com/v2', 'example.com/v2'],
    );
    assert.deepEqual(await c.convert([], 'example.com/v2'), []);
  });

  it('refuses versions the CRD does not have, with kube texts, as a 500 InternalError', async () => {
    const c = buildConverter(crd({ strategy: 'None' }), noStorage);
    const err = await c.convert([widget('example.com/v1')], 'example.com/v9').catch((e: unknown) => e);
    assert.ok(err instanceof ConversionError && err instanceof StatusError);
    assert.equal(err.code, 500);
    assert.equal(err.reason, 'InternalError');
    assert.equal(err.message, 'Internal error occurred: request to convert CR to an invalid group/version: example.com/v9');
    assert.deepEqual(err.toWriteError().status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'request to convert CR to an invalid group/version: example.com/v9', code: 500 });
    await assert.rejects(c.convert([widget('other.io/v1')], 'example.com/v2'), { message: 'Internal error occurred: request to convert CR from an invalid group/version: other.io/v1' });
    await assert.rejects(c.convert([widget('example.com/v1'), widget('other.io/v1')], 'example.com/v2'), {
      message: 'Internal error occurred: request to convert CR list failed, list index 1 has invalid group/version: other.io/v1',
    });
  });

  it('fails every conversion of a CRD with an unknown strategy, but passes objects already there', async () => {
    const c = buildConverter(crd({ strategy: 'Magic' }), noStorage);
    await assert.rejects(c.convert([widget('example.com/v1')], 'example.com/v2'), { message: 'Internal error occurred: unknown conversion strategy "Magic" for CRD widgets.example.com' });
    const same = widget('example.com/v2');
    assert.equal((await c.convert([same], 'example.com/v2'))[0], same);
  });
});
