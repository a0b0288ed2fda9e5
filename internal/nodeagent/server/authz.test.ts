import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiClient } from '../client/api-client.js';
import { createAuthorizer, requestAttributes } from './authz.js';

const user = { username: 'u', groups: ['g'] };
const sub = (method: string, path: string): string[] => requestAttributes(user, method, path, 'n1').map((a) => `${a.verb} ${a.resource}/${a.subresource} ${a.name}`);

describe('kubelet authorization attributes', () => {
  it('maps paths to subresources and methods to verbs as kubelet does', () => {
    assert.deepEqual(sub('GET', '/stats/summary'), ['get nodes/stats n1']);
    assert.deepEqual(sub('GET', '/metrics/cadvisor'), ['get nodes/metrics n1']);
    assert.deepEqual(sub('GET', '/logs/syslog'), ['get nodes/log n1']);
    assert.deepEqual(sub('POST', '/checkpoint/ns/p/c'), ['create nodes/checkpoint n1']);
    assert.deepEqual(sub('POST', '/exec/ns/p/c'), ['create nodes/proxy n1']);
    assert.deepEqual(sub('GET', '/containerLogs/ns/p/c'), ['get nodes/proxy n1']);
    assert.deepEqual(sub('PUT', '/x'), ['update nodes/proxy n1']);
    assert.deepEqual(sub('DELETE', '/x'), ['delete nodes/proxy n1']);
    // KubeletFineGrainedAuthz (1.33 beta, on): the specific subresource first, then proxy.
    assert.deepEqual(sub('GET', '/pods'), ['get nodes/pods n1', 'get nodes/proxy n1']);
    assert.deepEqual(sub('GET', '/healthz/ping'), ['get nodes/healthz n1', 'get nodes/proxy n1']);
    assert.deepEqual(sub('GET', '/configz'), ['get nodes/configz n1', 'get nodes/proxy n1']);
    assert.deepEqual(sub('GET', '/statsfoo'), ['get nodes/proxy n1']);
  });
  it('caches allowed and denied answers for their own TTLs', async () => {
    let calls = 0;
    let allow = true;
    let now = 0;
    const client = { request: async () => (calls++, { status: { allowed: allow } }) } as unknown as ApiClient;
    const authz = createAuthorizer({ mode: 'Webhook', webhook: { cacheAuthorizedTTLMs: 1000, cacheUnauthorizedTTLMs: 100 } }, client, () => now);
    const [attrs] = requestAttributes(user, 'GET', '/stats/summary', 'n1');
    assert.equal(await authz.authorize(attrs!), true);
    allow = false;
    assert.equal(await authz.authorize(attrs!), true);
    assert.equal(calls, 1);
    now = 1001;
    assert.equal(await authz.authorize(attrs!), false);
    allow = true;
    now = 1050;
    assert.equal(await authz.authorize(attrs!), false);
    now = 1102;
    assert.equal(await authz.authorize(attrs!), true);
    assert.equal(calls, 3);
  });
});
