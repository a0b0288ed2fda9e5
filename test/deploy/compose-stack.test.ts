/**
 * The compose control plane without Docker: its three etcd members (test/deploy/compose-etcd.ts)
 * and both API servers started in this process from their compose command lines (addresses moved
 * to loopback ports, files to what hack/gen-deploy-certs.ts wrote), then the README's last step:
 * kubectl with admin.conf. What one server writes the other reads; both publish themselves in the
 * `kubernetes` Endpoints; the audit log records the write.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { composePlan, generateDeployPki } from '../../hack/deploy-pki.js';
import { freePort } from '../../hack/local-etcd.js';
import { createLogger } from '../../internal/observability/logging.js';
import { parseFlags } from '../../internal/server/options/flags.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';
import { kubectl } from '../support/kubectl.js';
import { moveAddresses, startComposeEtcd, type ComposeEtcd } from './compose-etcd.js';
import { composeFile, composeMounts, hostPathOf, loadCompose } from './manifests.js';

const compose = loadCompose();
const apiNames = ['apiserver-1', 'apiserver-2'];
const composeDir = dirname(composeFile);
let out = '';
let etcd: ComposeEtcd | undefined;
const servers: RunningServer[] = [];
const ports: number[] = [];

/** The compose command line of name, runnable here. */
function localArgs(name: string, port: number): string[] {
  const svc = compose.services[name]!;
  return svc.command.map((arg) => {
    if (arg.startsWith('--bind-address=')) return '--bind-address=127.0.0.1';
    if (arg.startsWith('--secure-port=')) return `--secure-port=${port}`;
    const a = arg.startsWith('--etcd-servers=') ? moveAddresses(arg, etcd!.addresses, '') : arg;
    const eq = a.indexOf('=');
    const value = a.slice(eq + 1);
    if (!value.startsWith('/')) return a;
    const hit = hostPathOf(composeMounts(svc), value);
    assert.ok(hit, `${name}: ${value} is not mounted`);
    const rel = hit.path.slice(composeDir.length + 1);
    // certs/... and audit/... live in out; the repository's files stay where they are.
    return `${a.slice(0, eq + 1)}${rel.startsWith('certs/') ? join(out, rel.slice('certs/'.length)) : rel.startsWith('audit/') ? join(out, rel) : hit.path}`;
  });
}

function k(i: number, args: string[]) {
  return kubectl(join(out, 'admin.conf'), [`--server=https://127.0.0.1:${ports[i]}`, ...args]);
}

before(async () => {
  out = await mkdtemp(join(tmpdir(), 'capstan-compose-stack-'));
  await generateDeployPki(out, composePlan);
  etcd = await startComposeEtcd(out);
  const log = createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1');
  for (const name of apiNames) {
    await mkdir(join(out, 'audit', name), { recursive: true });
    const port = await freePort();
    ports.push(port);
    const parsed = parseFlags(localArgs(name, port), 'test');
    assert.equal(parsed.kind, 'run', parsed.kind === 'exit' ? parsed.stderr : '');
    if (parsed.kind !== 'run') return;
    // The test stops its servers at once; --shutdown-delay-duration is for load balancers.
    const options = { ...parsed.options, shutdown: { ...parsed.options.shutdown!, delayDurationMs: 0 } };
    const server = await startServer(options, log);
    servers.push(server);
    await server.ready;
  }
});

after(async () => {
  for (const s of servers) await s.stop();
  await etcd?.stop();
  if (out) await rm(out, { recursive: true, force: true });
});

describe('the compose control plane, run here', () => {
  it('kubectl with admin.conf: both servers ready; what one writes the other reads', async () => {
    for (const i of [0, 1]) {
      const r = await k(i, ['get', '--raw=/readyz']);
      assert.equal(r.stdout.trim(), 'ok', r.stderr);
    }
    const created = await k(0, ['create', 'namespace', 'deploy-demo']);
    assert.equal(created.code, 0, created.stderr);
    const read = await k(1, ['get', 'namespace', 'deploy-demo', '-o', 'jsonpath={.metadata.name}']);
    assert.equal(read.stdout, 'deploy-demo', read.stderr);
    const who = await k(1, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.groups}']);
    assert.match(who.stdout, /system:masters/, who.stderr);
  });

  it('both servers publish their advertise address in the kubernetes Endpoints', async () => {
    const want = apiNames.map((n) => compose.services[n]!.networks!.capstan!.ipv4_address!).sort();
    const deadline = Date.now() + 15_000;
    let got: string[] = [];
    while (Date.now() < deadline) {
      const r = await k(0, ['get', 'endpoints', 'kubernetes', '-n', 'default', '-o', 'jsonpath={.subsets[*].addresses[*].ip}']);
      got = r.stdout.split(/\s+/).filter((x) => x).sort();
      if (got.join() === want.join()) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    assert.deepEqual(got, want);
  });

  it("the audit log records the write with deploy/audit-policy.yaml's level", async () => {
    const lines = (await readFile(join(out, 'audit', 'apiserver-1', 'audit.log'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const create = lines.find((e) => e.verb === 'create' && e.objectRef?.resource === 'namespaces' && e.objectRef?.name === 'deploy-demo');
    assert.ok(create, 'no audit event for the namespace created through apiserver-1');
    assert.equal(create.level, 'RequestResponse');
    assert.equal(create.user.username, 'kubernetes-admin');
    assert.ok(!lines.some((e) => e.stage === 'RequestReceived'), 'RequestReceived is omitted');
  });
});
