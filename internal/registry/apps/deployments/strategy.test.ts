import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage, type FieldError } from '../../../validation/field-error.js';
import { requestContext } from '../../core/shared/testing.js';
import { deploymentStatusStrategy, deploymentStrategy } from './strategy.js';

const ctx = requestContext('POST', '/apis/apps/v1/namespaces/ns/deployments');
const messages = (errs: FieldError[]): string[] => errs.map(fieldErrorMessage);
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
const deploy = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'web', namespace: 'ns', generation: 1, ...meta },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template, ...spec },
});

describe('deployment strategy: validation', () => {
  it('accepts a selector that matches the template', () => {
    assert.deepEqual(deploymentStrategy.validate(ctx, deploy({})), []);
  });

  it('requires a non-empty selector matching the template labels', () => {
    assert.deepEqual(messages(deploymentStrategy.validate(ctx, deploy({ selector: undefined }))), ['spec.selector: Required value']);
    assert.deepEqual(messages(deploymentStrategy.validate(ctx, deploy({ selector: {} }))), [
      'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    ]);
    assert.deepEqual(messages(deploymentStrategy.validate(ctx, deploy({ selector: { matchLabels: { app: 'api' } } }))), [
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
    assert.deepEqual(
      messages(deploymentStrategy.validate(ctx, deploy({ selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['web'] }] } }))),
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near","values":["web"]}]}: invalid label selector',
      ],
    );
  });

  it('requires replicas >= 0 and a runnable template', () => {
    assert.deepEqual(
      messages(deploymentStrategy.validate(ctx, deploy({ replicas: -1, template: { metadata: template.metadata, spec: { restartPolicy: 'Never' } } }))),
      [
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        'spec.template.spec.containers: Required value',
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      ],
    );
  });

  it('keeps the selector immutable', () => {
    const old = deploy({});
    const next = deploy({ selector: { matchLabels: { app: 'web', tier: 'x' } }, template: { ...template, metadata: { labels: { app: 'web', tier: 'x' } } } });
    assert.deepEqual(messages(deploymentStrategy.validateUpdate(ctx, next, old)), [
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable',
    ]);
  });
});

describe('deployment strategy: prepare', () => {
  it('clears status on create and keeps it on update', () => {
    const obj = deploy({});
    obj.status = { replicas: 9 };
    deploymentStrategy.prepareForCreate(ctx, obj);
    assert.deepEqual(obj.status, {});
    const next = deploy({});
    next.status = { replicas: 1 };
    deploymentStrategy.prepareForUpdate(ctx, next, { ...deploy({}), status: { replicas: 2 } });
    assert.deepEqual(next.status, { replicas: 2 });
  });

  it('bumps generation when annotations change', () => {
    const old = deploy({}, { generation: 3 });
    const next = deploy({}, { generation: 3, annotations: { note: 'x' } });
    deploymentStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.metadata.generation, 4);
  });

  it('deletes dependents by default', () => {
    assert.equal(deploymentStrategy.defaultGarbageCollectionPolicy, 'DeleteDependents');
  });
});

describe('deployment status strategy', () => {
  it('keeps spec and labels, lets annotations change, checks counts', () => {
    const old = deploy({}, { labels: { a: '1' } });
    const next = deploy({ replicas: 9 }, { labels: { a: '2' }, annotations: { b: '1' } });
    next.status = { replicas: 2, readyReplicas: 2, availableReplicas: 2 };
    deploymentStatusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.spec, old.spec);
    assert.deepEqual(next.metadata.labels, { a: '1' });
    assert.deepEqual(next.metadata.annotations, { b: '1' });
    assert.deepEqual(deploymentStatusStrategy.validateUpdate(ctx, next, old), []);
    next.status = { replicas: 1, readyReplicas: 2, availableReplicas: 2 };
    assert.deepEqual(messages(deploymentStatusStrategy.validateUpdate(ctx, next, old)), [
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
    ]);
  });
});
