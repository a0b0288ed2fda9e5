import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PodIPPool, simulatedHostIP, simulatedPodCIDR } from './addresses.js';
import { behaviourOf, parseSimulationRules } from './rules.js';

describe('simulation rules', () => {
  const rules = parseSimulationRules(`
rules:
- match: {namespace: batch, labels: {app: job}}
  runDuration: 30s
  exitCode: 1
- match: {namePrefix: slow-}
  startDelay: 2s
default:
  startDelay: 100ms
`);

  it('first matching rule, then the default, then annotations over both', () => {
    assert.deepEqual(behaviourOf(rules, { metadata: { namespace: 'batch', name: 'j', labels: { app: 'job' } } }), { startDelayMs: 100, runDurationMs: 30_000, exitCode: 1 });
    assert.deepEqual(behaviourOf(rules, { metadata: { namespace: 'default', name: 'slow-1' } }), { startDelayMs: 2_000, exitCode: 0 });
    assert.deepEqual(behaviourOf(rules, { metadata: { namespace: 'default', name: 'web' } }), { startDelayMs: 100, exitCode: 0 });
    const annotated = { metadata: { namespace: 'batch', name: 'j', labels: { app: 'job' }, annotations: { 'simulated.capstan.io/run-duration': '1m', 'simulated.capstan.io/exit-code': '0' } } };
    assert.deepEqual(behaviourOf(rules, annotated), { startDelayMs: 100, runDurationMs: 60_000, exitCode: 0 });
  });

  it('refuses unknown fields and bad values, naming them', () => {
    assert.throws(() => parseSimulationRules('rules:\n- runFor: 1s\n'), /rules\[0\]: unknown field "runFor"/);
    assert.throws(() => parseSimulationRules('rules:\n- runDuration: soon\n'), /rules\[0\].runDuration: time: invalid duration "soon"/);
    assert.throws(() => parseSimulationRules('default:\n  exitCode: 300\n'), /default.exitCode: must be an integer from 0 to 255/);
    assert.throws(() => parseSimulationRules('default:\n  match: {}\n'), /default: unknown field "match"/);
  });

  it('addresses: a host IP and a /24 per node, pod addresses reused', () => {
    assert.equal(simulatedHostIP(0), '172.16.0.1');
    assert.equal(simulatedHostIP(999), '172.16.3.232');
    assert.equal(simulatedPodCIDR(300), '10.129.44.0/24');
    const pool = new PodIPPool('10.128.5.0/24');
    const a = pool.take();
    assert.equal(a, '10.128.5.2');
    assert.equal(pool.take(), '10.128.5.3');
    pool.release(a!);
    assert.equal(pool.take(), '10.128.5.2');
    pool.reserve('10.128.5.6');
    assert.deepEqual([pool.take(), pool.take(), pool.take()].sort(), ['10.128.5.4', '10.128.5.5', '10.128.5.7']);
  });
});
