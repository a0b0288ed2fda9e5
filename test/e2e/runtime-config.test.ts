/**
 * kubectl against a server started with --runtime-config=batch/v1=false: batch is gone from
 * api-versions and api-resources, and kubectl calls jobs an unknown resource type, as it does
 * against kube-apiserver with the same flag.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer({}, ['--runtime-config=batch/v1=false']);

describe('kubectl with batch/v1 disabled', () => {
  it('api-versions and api-resources leave batch out', async () => {
    const versions = await kubectl(fx.kubeconfigPath, ['api-versions']);
    assert.equal(versions.code, 0, versions.stderr);
    const list = versions.stdout.trim().split('\n');
    assert.ok(list.includes('apps/v1'));
    assert.ok(!list.includes('batch/v1'));
    const resources = await kubectl(fx.kubeconfigPath, ['api-resources', '--no-headers', '-o', 'name']);
    assert.equal(resources.code, 0, resources.stderr);
    const names = resources.stdout.trim().split('\n');
    assert.ok(names.includes('deployments.apps'));
    assert.ok(!names.some((n) => n.endsWith('.batch')));
  });

  it('reports jobs as an unknown resource type', async () => {
    const r = await kubectl(fx.kubeconfigPath, ['get', 'jobs']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /the server doesn't have a resource type "jobs"/);
    const cj = await kubectl(fx.kubeconfigPath, ['get', 'cronjobs.batch']);
    assert.match(cj.stderr, /the server doesn't have a resource type "cronjobs"/);
  });
});
