import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo } from '../request/request-info.js';
import { cleanDryRun, cleanScope, nonResourceLabel, reportedVerb, routeScope } from './request-labels.js';

function labels(method: string, url: string, contentType?: string): { verb: string; scope: string } {
  const [path = '', q = ''] = url.split('?');
  const query = new URLSearchParams(q);
  const info = parseRequestInfo(method, path, query);
  const scope = routeScope(info);
  return { verb: reportedVerb(method, info, scope, query, contentType), scope };
}

describe('request metric labels (kube cleanVerb, CleanScope, cleanDryRun)', () => {
  it('reports LIST and GET by scope, WATCH, APPLY, CONNECT and other', () => {
    const cases: Array<[string, string, string | undefined, string, string]> = [
      ['GET', '/api/v1/namespaces/ns/pods', undefined, 'LIST', 'namespace'],
      ['GET', '/api/v1/pods', undefined, 'LIST', 'cluster'],
      ['HEAD', '/api/v1/nodes', undefined, 'LIST', 'cluster'],
      ['GET', '/api/v1/namespaces/ns/pods/web', undefined, 'GET', 'resource'],
      ['GET', '/api/v1/namespaces/ns/pods/web/status', undefined, 'GET', 'resource'],
      ['GET', '/api/v1/namespaces/ns', undefined, 'GET', 'resource'],
      ['GET', '/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dweb', undefined, 'LIST', 'namespace'],
      ['GET', '/api/v1/namespaces/ns/pods?watch=true', undefined, 'WATCH', 'namespace'],
      ['GET', '/api/v1/namespaces/ns/pods?watch=yes', undefined, 'WATCH', 'namespace'],
      ['GET', '/api/v1/namespaces/ns/pods?watch=false', undefined, 'LIST', 'namespace'],
      ['GET', '/api/v1/watch/namespaces/ns/pods', undefined, 'WATCH', 'namespace'],
      ['POST', '/api/v1/namespaces/ns/pods', undefined, 'POST', 'resource'],
      ['PUT', '/api/v1/namespaces/ns/pods/web', undefined, 'PUT', 'resource'],
      ['PATCH', '/api/v1/namespaces/ns/pods/web', 'application/merge-patch+json', 'PATCH', 'resource'],
      ['PATCH', '/api/v1/namespaces/ns/pods/web', 'application/apply-patch+yaml', 'APPLY', 'resource'],
      ['DELETE', '/api/v1/namespaces/ns/pods', undefined, 'DELETE', 'namespace'],
      ['GET', '/api/v1/namespaces/ns/pods/web/log', undefined, 'CONNECT', 'resource'],
      ['POST', '/api/v1/namespaces/ns/pods/web/exec', undefined, 'CONNECT', 'resource'],
      ['OPTIONS', '/api/v1/namespaces/ns/pods', undefined, 'other', 'namespace'],
      ['PROPFIND', '/api/v1/namespaces/ns/pods', undefined, 'other', 'namespace'],
      ['GET', '/healthz', undefined, 'GET', ''],
      ['HEAD', '/readyz', undefined, 'GET', ''],
      ['POST', '/version', undefined, 'POST', ''],
    ];
    for (const [method, url, ct, verb, scope] of cases) assert.deepEqual(labels(method, url, ct), { verb, scope }, `${method} ${url}`);
  });

  it("gives long-running requests kube's CleanScope, where a selector's name counts", () => {
    const info = parseRequestInfo('GET', '/api/v1/namespaces/ns/pods', new URLSearchParams('watch=1&fieldSelector=metadata.name%3Dweb'));
    assert.equal(cleanScope(info), 'resource');
    assert.equal(cleanScope(parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams('watch=1'))), 'cluster');
  });

  it('labels dry runs All, invalid or not at all', () => {
    const d = (q: string): string => cleanDryRun(`/x?${q}`, new URLSearchParams(q));
    assert.equal(d(''), '');
    assert.equal(d('dryRun=All'), 'All');
    assert.equal(d('dryRun=All&dryRun=All'), 'All');
    assert.equal(d('dryRun=all'), 'invalid');
    assert.equal(d('dryRun='), 'invalid');
    assert.equal(d('notdryRunx=1'), '');
  });

  it('labels non-resource paths by their known root, anything else ""', () => {
    assert.equal(nonResourceLabel('/healthz'), '/healthz');
    assert.equal(nonResourceLabel('/readyz/etcd'), '/readyz');
    assert.equal(nonResourceLabel('/openapi/v3/apis/apps/v1'), '/openapi/v3');
    assert.equal(nonResourceLabel('/apis/apps/v1'), '/apis');
    assert.equal(nonResourceLabel('/metricsfoo'), '');
    assert.equal(nonResourceLabel('/favicon.ico'), '');
    assert.equal(nonResourceLabel('/'), '');
  });
});
