import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compressUsername, observeAuthentication } from './authentication-metrics.js';
import { createMetrics } from './metrics.js';

describe('authentication metrics', () => {
  it("compresses user names as kube does", () => {
    for (const n of ['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default']) assert.equal(compressUsername(n), n);
    assert.equal(compressUsername('jane@example.com'), 'email_id');
    assert.equal(compressUsername('system:node:n1'), 'other');
  });

  it("records attempts, durations and users with kube's names, labels and buckets", async () => {
    const metrics = createMetrics();
    const observe = observeAuthentication(metrics);
    observe('success', 0.0005, 'admin');
    observe('success', 0.003, 'jane@example.com');
    observe('error', 0.01);
    observe('failure', 0.0001);
    const text = await metrics.text();
    assert.match(text, /^authentication_attempts\{result="success"\} 2$/m);
    assert.match(text, /^authentication_attempts\{result="error"\} 1$/m);
    assert.match(text, /^authentication_attempts\{result="failure"\} 1$/m);
    assert.match(text, /^authenticated_user_requests\{username="admin"\} 1$/m);
    assert.match(text, /^authenticated_user_requests\{username="email_id"\} 1$/m);
    assert.match(text, /^authentication_duration_seconds_bucket\{result="success",le="0\.001"\} 1$/m);
    assert.match(text, /^authentication_duration_seconds_bucket\{result="success",le="16\.384"\} 2$/m);
    assert.match(text, /^authentication_duration_seconds_count\{result="error"\} 1$/m);
  });
});
