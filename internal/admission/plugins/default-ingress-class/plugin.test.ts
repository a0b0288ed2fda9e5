import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import { testAttributes } from '../test-attributes.js';
import { testInformer } from '../test-informer.js';
import { DefaultIngressClass } from './plugin.js';

const ctx = {} as RequestContext;
const ic = (name: string, created: string, isDefault: boolean): KubeObject => ({
  metadata: { name, creationTimestamp: created, annotations: { 'ingressclass.kubernetes.io/is-default-class': String(isDefault) } },
});
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
  ({ metadata: { name: 'i', ...(annotations ? { annotations } : {}) }, spec: { ...spec } }) as KubeObject & { spec: { ingressClassName?: string } };
const attrs = (object: KubeObject) => testAttributes({ group: 'networking.k8s.io', resource: 'ingresses', object });

describe('DefaultIngressClass', () => {
  const plugin = new DefaultIngressClass(testInformer([ic('old', '2024-01-01T00:00:00Z', true), ic('new', '2025-01-01T00:00:00Z', true), ic('off', '2026-01-01T00:00:00Z', false)]));

  it('sets the newest default class on an Ingress without one', async () => {
    const ing = ingress();
    await plugin.admit(attrs(ing), ctx);
    assert.equal(ing.spec.ingressClassName, 'new');
  });

  it('leaves an Ingress with a class name or the legacy annotation', async () => {
    const named = ingress({ ingressClassName: 'mine' });
    await plugin.admit(attrs(named), ctx);
    assert.equal(named.spec.ingressClassName, 'mine');
    const annotated = ingress({}, { 'kubernetes.io/ingress.class': 'legacy' });
    await plugin.admit(attrs(annotated), ctx);
    assert.equal(annotated.spec.ingressClassName, undefined);
  });
});
