import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorsMessage } from '../../../validation/field-error.js';
import { compareLevels, latestVersion, levelVersionString, parseVersion, policyToEvaluate, type Policy } from './api.js';

const defaults: Policy = {
  enforce: { level: 'privileged', version: latestVersion },
  audit: { level: 'privileged', version: latestVersion },
  warn: { level: 'privileged', version: latestVersion },
};

describe('Pod Security policy labels', () => {
  it('labels override the defaults per mode', () => {
    const { policy, errors } = policyToEvaluate(
      { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.25', 'pod-security.kubernetes.io/warn': 'restricted' },
      defaults,
    );
    assert.deepEqual(errors, []);
    assert.equal(levelVersionString(policy.enforce), 'baseline:v1.25');
    assert.equal(levelVersionString(policy.warn), 'restricted:latest');
    assert.equal(levelVersionString(policy.audit), 'privileged:latest');
  });

  it('invalid values: enforce becomes restricted, audit and warn privileged, versions latest, each reported', () => {
    const { policy, errors } = policyToEvaluate(
      {
        'pod-security.kubernetes.io/enforce': 'bogus',
        'pod-security.kubernetes.io/enforce-version': 'v2.0',
        'pod-security.kubernetes.io/audit': 'Restricted',
        'pod-security.kubernetes.io/warn': 'x',
        'pod-security.kubernetes.io/warn-version': 'v1.01',
      },
      { ...defaults, warn: { level: 'baseline', version: 20 } },
    );
    assert.equal(levelVersionString(policy.enforce), 'restricted:latest');
    assert.equal(levelVersionString(policy.audit), 'privileged:latest');
    assert.equal(levelVersionString(policy.warn), 'privileged:latest');
    assert.equal(
      fieldErrorsMessage(errors),
      '[metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted, ' +
        'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v2.0": must be "latest" or "v1.x", ' +
        'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "Restricted": must be one of privileged, baseline, restricted, ' +
        'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "x": must be one of privileged, baseline, restricted, ' +
        'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1.01": must be "latest" or "v1.x"]',
    );
  });

  it('parses versions and compares levels', () => {
    assert.equal(parseVersion('v1.0').version, 0);
    assert.equal(parseVersion('v1.99').version, 99);
    assert.equal(parseVersion('1.2').error, 'must be "latest" or "v1.x"');
    assert.equal(compareLevels('baseline', 'restricted'), -1);
    assert.equal(compareLevels('restricted', 'baseline'), 1);
    assert.equal(compareLevels('privileged', 'privileged'), 0);
  });
});

describe('warn follows a labelled enforce level', () => {
  it('warns at the enforce level and version unless warn is labelled', () => {
    const p = (labels: Record<string, string>) => policyToEvaluate(labels, defaults).policy;
    assert.equal(levelVersionString(p({ 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.30' }).warn), 'restricted:v1.30');
    assert.equal(
      levelVersionString(p({ 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn-version': 'v1.20' }).warn),
      'restricted:v1.20',
    );
    assert.equal(levelVersionString(p({ 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'baseline' }).warn), 'baseline:latest');
    assert.equal(levelVersionString(p({ 'pod-security.kubernetes.io/enforce': 'bogus' }).warn), 'privileged:latest');
    assert.equal(levelVersionString(p({ 'pod-security.kubernetes.io/enforce-version': 'v1.2' }).warn), 'privileged:latest');
  });
});
