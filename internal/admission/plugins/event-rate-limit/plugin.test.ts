import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import { testAttributes } from '../test-attributes.js';
import { parseEventRateLimitConfiguration } from './config.js';
import { EventRateLimitPlugin } from './plugin.js';

const ctx = {} as RequestContext;
const event = (ns: string, user = 'alice', component = 'kubelet'): Parameters<EventRateLimitPlugin['validate']>[0] =>
  testAttributes({
    resource: 'events',
    kind: 'Event',
    namespace: ns,
    user,
    object: { metadata: { name: 'e' }, source: { component }, involvedObject: { kind: 'Pod', name: 'p', namespace: ns } } as KubeObject,
  });

async function outcome(p: EventRateLimitPlugin, a: ReturnType<typeof event>): Promise<string> {
  try {
    await p.validate(a, ctx);
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('EventRateLimit', () => {
  it('spends the burst, refuses with 429 and kube message, and refills at qps', async () => {
    let now = 0;
    const p = new EventRateLimitPlugin(parseEventRateLimitConfiguration({ apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'Namespace', qps: 2, burst: 2 }] }), () => now);
    assert.equal(await outcome(p, event('a')), 'ok');
    assert.equal(await outcome(p, event('a')), 'ok');
    assert.equal(await outcome(p, event('a')), 'Too many requests: limit reached on type Namespace for key a');
    assert.equal(await outcome(p, event('b')), 'ok');
    now += 500;
    assert.equal(await outcome(p, event('a')), 'ok');
    await assert.rejects(p.validate(event('a'), ctx), { code: 429, reason: 'TooManyRequests' });
  });

  it('keys Server, User and SourceAndObject limits, and ignores other kinds', async () => {
    const limits = parseEventRateLimitConfiguration({
      apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1',
      kind: 'Configuration',
      limits: [
        { type: 'User', qps: 1, burst: 1 },
        { type: 'SourceAndObject', qps: 1, burst: 5, cacheSize: 10 },
      ],
    });
    const p = new EventRateLimitPlugin(limits, () => 0);
    assert.equal(await outcome(p, event('a', 'u1')), 'ok');
    assert.equal(await outcome(p, event('b', 'u1')), 'Too many requests: limit reached on type User for key u1');
    assert.equal(await outcome(p, event('a', 'u2')), 'ok');
    const server = new EventRateLimitPlugin([{ type: 'Server', qps: 1, burst: 1, cacheSize: 4096 }], () => 0);
    assert.equal(await outcome(server, event('a')), 'ok');
    assert.equal(await outcome(server, event('b')), 'Too many requests: limit reached on type Server for key ');
    await server.validate(testAttributes({ resource: 'pods', kind: 'Pod' }), ctx);
  });

  it('validates the configuration with kube texts', () => {
    assert.throws(() => parseEventRateLimitConfiguration(undefined), { message: 'limits: Invalid value: []eventratelimit.Limit(nil): must not be empty' });
    assert.throws(
      () => parseEventRateLimitConfiguration({ apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'Pod', qps: 0, burst: 1, cacheSize: -1 }] }),
      {
        message:
          '[limits[0].type: Unsupported value: "Pod": supported values: "Server", "Namespace", "User", "SourceAndObject", limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative]',
      },
    );
    assert.deepEqual(parseEventRateLimitConfiguration({ apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'User', qps: 5, burst: 10 }] }), [
      { type: 'User', qps: 5, burst: 10, cacheSize: 4096 },
    ]);
  });
});
