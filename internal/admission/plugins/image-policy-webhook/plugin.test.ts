import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AdmissionAttributes } from '../../interface.js';
import { goDuration, parseImagePolicyConfig } from './config.js';
import { ImagePolicyWebhook } from './plugin.js';

function podAttrs(annotations: Record<string, string> = {}, recorded: Record<string, string> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: '',
    kind: 'Pod',
    namespace: 'default',
    name: 'p',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', annotations }, spec: { containers: [{ image: 'nginx' }], initContainers: [{ image: 'busybox' }] } } as KubeObject,
    oldObject: undefined,
    dryRun: false,
    userInfo: { name: 'u', groups: [] },
    addAnnotation: (k, v) => {
      recorded[k] = v;
      return undefined;
    },
  };
}

function backend(answer: () => unknown) {
  const sent: any[] = [];
  return {
    sent,
    client: {
      post: async (body: unknown) => {
        sent.push(body);
        const a = answer();
        if (a instanceof Error) throw a;
        return { status: 200, body: Buffer.from(JSON.stringify(a)) };
      },
    },
  };
}

const config = parseImagePolicyConfig({ imagePolicy: { kubeConfigFile: '/x', allowTTL: 50, denyTTL: 50 } });

describe('ImagePolicyWebhook', () => {
  it('normalizes its configuration as kube does', () => {
    assert.deepEqual(parseImagePolicyConfig({ imagePolicy: { kubeConfigFile: '/k' } }), { kubeConfigFile: '/k', allowTTLMs: 300_000, denyTTLMs: 30_000, retryBackoffMs: 500, defaultAllow: false });
    assert.equal(parseImagePolicyConfig({ imagePolicy: { allowTTL: -1 } }).allowTTLMs, 0);
    assert.throws(() => parseImagePolicyConfig({ imagePolicy: { allowTTL: 2700 } }), { message: 'valid value is between 1s and 30m0s, got 45m0s' });
    assert.throws(() => parseImagePolicyConfig({ imagePolicy: { retryBackoff: 400000 } }), { message: 'valid value is between 1ns and 5m0s, got 6m40s' });
    assert.throws(() => parseImagePolicyConfig(undefined), { message: 'no config specified' });
    assert.equal(goDuration(1_500_000), '1.5ms');
  });

  it('sends the images, image-policy annotations and namespace; caches the answer; records audit annotations', async () => {
    const b = backend(() => ({ apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview', status: { allowed: true, auditAnnotations: { 'checked-by': 'test' } } }));
    const plugin = new ImagePolicyWebhook(config, b.client);
    const recorded: Record<string, string> = {};
    await plugin.validate(podAttrs({ 'a.image-policy.k8s.io/ticket': '42', other: 'x' }, recorded));
    assert.deepEqual(b.sent[0].spec, { containers: [{ image: 'nginx' }, { image: 'busybox' }], annotations: { 'a.image-policy.k8s.io/ticket': '42' }, namespace: 'default' });
    assert.equal(b.sent[0].apiVersion, 'imagepolicy.k8s.io/v1alpha1');
    assert.deepEqual(recorded, { 'imagepolicywebhook.image-policy.k8s.io/checked-by': 'test' });
    await plugin.validate(podAttrs({ 'a.image-policy.k8s.io/ticket': '42' }));
    assert.equal(b.sent.length, 1, 'the second review came from the cache');
  });

  it('refuses denied images and, unless defaultAllow, backend failures', async () => {
    const denied = new ImagePolicyWebhook(config, backend(() => ({ status: { allowed: false, reason: 'nginx is banned' } })).client);
    await assert.rejects(denied.validate(podAttrs()), { message: 'pods "p" is forbidden: image policy webhook backend denied one or more images: nginx is banned' });
    const down = new ImagePolicyWebhook(config, backend(() => new Error('connection refused')).client);
    await assert.rejects(down.validate(podAttrs()), { message: 'pods "p" is forbidden: connection refused' });
    const open = new ImagePolicyWebhook({ ...config, defaultAllow: true }, backend(() => new Error('connection refused')).client);
    const recorded: Record<string, string> = {};
    const attrs = podAttrs({}, recorded);
    await open.validate(attrs);
    assert.equal(attrs.object?.metadata.annotations?.['alpha.image-policy.k8s.io/failed-open'], 'true');
    assert.deepEqual(recorded, { 'imagepolicywebhook.image-policy.k8s.io/failed-open': 'true' });
  });
});
