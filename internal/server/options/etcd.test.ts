import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags } from './flags.js';

const run = (args: string[]) => parseFlags(['--etcd-servers=https://127.0.0.1:2379', ...args], 'v');
const stderrOf = (args: string[]): string => {
  const r = run(args);
  assert.equal(r.kind, 'exit', String(args));
  return r.kind === 'exit' ? (r.stderr ?? '') : '';
};

describe('etcd client flags', () => {
  it('TLS files, several servers, https without a CA (the system roots, as kube)', () => {
    const r = parseFlags(['--etcd-servers=https://a:1,https://b:2', '--etcd-cafile=/ca.crt', '--etcd-certfile=/c.crt', '--etcd-keyfile=/c.key'], 'v');
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.etcdServers, ['https://a:1', 'https://b:2']);
    assert.deepEqual(r.options.etcd, { caFile: '/ca.crt', certFile: '/c.crt', keyFile: '/c.key', serversOverrides: [] });
    assert.equal(run([]).kind, 'run');
  });

  it('--etcd-certfile and --etcd-keyfile go together', () => {
    assert.match(stderrOf(['--etcd-certfile=/c.crt']), /--etcd-certfile and --etcd-keyfile must be specified together/);
    assert.match(stderrOf(['--etcd-keyfile=/c.key']), /must be specified together/);
  });

  it('--storage-backend: etcd3 (or unset); anything else refused with kube message', () => {
    assert.equal(run(['--storage-backend=etcd3']).kind, 'run');
    assert.match(stderrOf(['--storage-backend=etcd2']), /--storage-backend invalid, allowed values: etcd3\. If not specified, it will default to 'etcd3'/);
  });

  it('--etcd-servers-overrides: group/resource#servers;servers, comma separated and repeatable', () => {
    const r = run(['--etcd-servers-overrides=/events#https://127.0.0.1:2479;https://127.0.0.1:2579,apps/deployments#http://d:1', '--etcd-servers-overrides', 'coordination.k8s.io/leases#http://l:1']);
    assert.equal(r.kind, 'run');
    if (r.kind !== 'run') return;
    assert.deepEqual(r.options.etcd?.serversOverrides, [
      { group: '', resource: 'events', servers: ['https://127.0.0.1:2479', 'https://127.0.0.1:2579'] },
      { group: 'apps', resource: 'deployments', servers: ['http://d:1'] },
      { group: 'coordination.k8s.io', resource: 'leases', servers: ['http://l:1'] },
    ]);
    const format = /--etcd-servers-overrides invalid, must be of format: group\/resource#servers, where servers are URLs, semicolon separated/;
    assert.match(stderrOf(['--etcd-servers-overrides=/events/http://127.0.0.1:4002']), format);
    assert.match(stderrOf(['--etcd-servers-overrides=events#http://127.0.0.1:4002']), format);
    assert.match(stderrOf(['--etcd-servers-overrides=a/b/c#http://x:1']), format);
    assert.match(stderrOf(['--etcd-servers-overrides=/events#']), /no servers given/);
    assert.match(stderrOf(['--etcd-servers-overrides=/events#x:1']), /invalid URL "x:1"/);
    assert.match(stderrOf(['--etcd-servers-overrides=/events#http://a:1,/events#http://b:1']), /overridden more than once/);
  });
});
