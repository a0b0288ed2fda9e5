import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import type { Logger } from '../observability/logging.js';
import { serveHealth, type HealthCheck, type HealthEndpoints } from './health.js';

interface Answer {
  served: boolean;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const ok = (name: string): HealthCheck => ({ name, check: () => undefined });
const failing = (name: string, reason: string): HealthCheck => ({
  name,
  check: async () => {
    throw new Error(reason);
  },
});

function recorder(): { log: Logger; lines: Array<[number, string]> } {
  const lines: Array<[number, string]> = [];
  const log: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, v: (level, m) => lines.push([level, m]) };
  return { log, lines };
}

async function get(endpoints: HealthEndpoints, url: string, log?: Logger, method = 'GET'): Promise<Answer> {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const answer: Answer = { served: false, status: 200, headers: {}, body: '' };
  const res = {
    set statusCode(code: number) {
      answer.status = code;
    },
    setHeader: (k: string, v: string) => (answer.headers[k.toLowerCase()] = v),
    end: (body: string) => (answer.body = body),
  } as unknown as ServerResponse;
  answer.served = await serveHealth(endpoints, { method } as IncomingMessage, res, path, query, log);
  return answer;
}

const endpoints: HealthEndpoints = {
  healthz: [ok('ping'), ok('log'), ok('etcd'), ok('poststarthook/rbac/bootstrap-roles')],
  livez: [ok('ping'), ok('log'), ok('etcd')],
  readyz: [ok('ping'), ok('log'), ok('etcd'), ok('etcd-readiness'), ok('shutdown')],
};

describe('health endpoints', () => {
  it('answer "ok" without ?verbose and list every check with it', async () => {
    const plain = await get(endpoints, '/readyz');
    assert.deepEqual([plain.status, plain.body], [200, 'ok']);
    assert.equal(plain.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(plain.headers['x-content-type-options'], 'nosniff');
    const verbose = await get(endpoints, '/readyz?verbose');
    assert.equal(verbose.body, '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]shutdown ok\nreadyz check passed\n');
    assert.equal((await get(endpoints, '/livez?verbose=false')).body.endsWith('livez check passed\n'), true, 'any ?verbose value is verbose');
  });

  it('?exclude skips checks in place, repeatable; unknown names get a warn line and a -v=6 log', async () => {
    const { log, lines } = recorder();
    const res = await get(endpoints, '/readyz?verbose&exclude=etcd&exclude=shutdown&exclude=zz&exclude=aa', log);
    assert.equal(
      res.body,
      '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]etcd-readiness ok\n[+]shutdown excluded: ok\nwarn: some health checks cannot be excluded: no matches for "aa","zz"\nreadyz check passed\n',
    );
    assert.deepEqual(lines, [[6, 'cannot exclude some health checks, no health checks are installed matching "aa","zz"']]);
    const quiet = await get(endpoints, '/readyz?exclude=nothing');
    assert.equal(quiet.body, 'ok', 'without ?verbose a passing answer is just ok');
  });

  it('a failure withholds the reason, answers 500 and logs the reasons at -v=2', async () => {
    const { log, lines } = recorder();
    const broken: HealthEndpoints = {
      ...endpoints,
      readyz: [ok('ping'), failing('etcd', 'error getting data from etcd: context deadline exceeded'), ok('informer-sync'), failing('shutdown', 'process is shutting down')],
    };
    const res = await get(broken, '/readyz', log);
    assert.equal(res.status, 500);
    assert.equal(res.body, '[+]ping ok\n[-]etcd failed: reason withheld\n[+]informer-sync ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(lines, [
      [2, 'etcd,shutdown check failed: readyz\n[-]etcd failed: error getting data from etcd: context deadline exceeded\n[-]shutdown failed: process is shutting down\n'],
    ]);
    const excluded = await get(broken, '/readyz?exclude=etcd&exclude=shutdown');
    assert.deepEqual([excluded.status, excluded.body], [200, 'ok'], 'excluding the failing checks passes');
  });

  it('one check at /<endpoint>/<name> shows its reason; names may hold slashes', async () => {
    assert.deepEqual(await get(endpoints, '/healthz/etcd'), { served: true, status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'ok' });
    assert.equal((await get(endpoints, '/healthz/poststarthook/rbac/bootstrap-roles')).body, 'ok');
    const broken = { ...endpoints, livez: [failing('etcd', 'boom')] };
    const res = await get(broken, '/livez/etcd');
    assert.deepEqual([res.status, res.body], [500, 'internal server error: boom\n']);
  });

  it('unknown checks, other endpoints\' checks and trailing slashes are not health paths (404 elsewhere)', async () => {
    assert.equal((await get(endpoints, '/healthz/nothing')).served, false);
    assert.equal((await get(endpoints, '/livez/etcd-readiness')).served, false, 'etcd-readiness is a readyz check only');
    assert.equal((await get(endpoints, '/healthz/')).served, false);
    assert.equal((await get(endpoints, '/healthzz')).served, false);
    assert.equal((await get(endpoints, '/api')).served, false);
  });

  it('serves any method, as kube\'s mux does (authorization decides who may)', async () => {
    assert.equal((await get(endpoints, '/healthz', undefined, 'HEAD')).status, 200);
    assert.equal((await get(endpoints, '/healthz', undefined, 'POST')).body, 'ok');
  });
});
