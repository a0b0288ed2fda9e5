/**
 * kubectl exec, attach and port-forward through the API server to a kubelet serving the node
 * agent's streaming handlers over a real containerd: kubectl 1.27 speaks SPDY end to end, kubectl
 * 1.33 WebSocket v5 for exec/attach (translated on the node) and SPDY tunnelled through
 * WebSocket for port-forward.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { kubectl, kubectlBinary, waitFor } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import { startStreamingNode, type StreamingNode } from '../support/streaming-node.js';

let node: StreamingNode;
// The API server finds node-1's kubelet as kube does: the Node's InternalIP and kubelet endpoint
// port, over TLS with no --kubelet-certificate-authority (so unverified, as kube dials then).
const fx = useServer();

// Set up once, from the first test: useServer's before() must have finished first.
let setup: Promise<void> | undefined;
function ready(): Promise<void> {
  setup ??= start();
  return setup;
}

async function start(): Promise<void> {
  node = await startStreamingNode(`/tmp/capstan-stream-e2e-${process.pid}`);
  const [address, port] = node.host.split(':');
  const nodeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } };
  const created = await fx.request('POST', '/api/v1/nodes', { body: nodeObject });
  assert.equal(created.status, 201, created.text);
  const nodeStatus = { status: { addresses: [{ type: 'InternalIP', address }], daemonEndpoints: { kubeletEndpoint: { Port: Number(port) } } } };
  const patched = await fx.request('PATCH', '/api/v1/nodes/node-1/status', { body: nodeStatus, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(patched.status, 200, patched.text);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: { nodeName: 'node-1', containers: [{ name: 'main', image: 'capstan.local/busybox:1' }, { name: 'echo', image: 'capstan.local/busybox:1', stdin: true }] },
  };
  const res = await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod });
  assert.equal(res.status, 201, res.text);
  // kubectl port-forward refuses a pod that is not Running; no node agent writes status here.
  const status = await fx.request('PATCH', '/api/v1/namespaces/default/pods/web/status', { body: { status: { phase: 'Running' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(status.status, 200, status.text);
}
after(async () => {
  await node?.stop();
});

function httpGet(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

/** What kubectl <version> must have asked the kubelet for: SPDY from 1.27; from 1.33 WebSocket v5, and SPDY tunnelled through WebSocket for port-forward. */
function assertProtocol(version: string, kind: string, from: number): void {
  const requests = node.seen.slice(from).filter((r) => r.kind === kind);
  assert.ok(requests.length > 0, `no ${kind} request reached the kubelet`);
  for (const r of requests) {
    if (version === '1.27') assert.equal(r.upgrade, 'SPDY/3.1');
    else if (kind === 'portForward') assert.deepEqual([r.upgrade.toLowerCase(), r.protocols.includes('SPDY/3.1+portforward.k8s.io')], ['websocket', true]);
    else assert.deepEqual([r.upgrade.toLowerCase(), r.protocols.split(',')[0]?.trim()], ['websocket', 'v5.channel.k8s.io']);
  }
}

for (const version of ['1.27', '1.33']) {
    test(`kubectl ${version} exec: output, exit code, stdin`, async () => {
      await ready();
      const from = node.seen.length;
      const out = await kubectl(fx.kubeconfigPath, ['exec', 'web', '-c', 'main', '--', 'sh', '-c', 'echo hello; echo oops >&2'], { version });
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, 'hello\n');
      assert.match(out.stderr, /oops/);
      const failed = await kubectl(fx.kubeconfigPath, ['exec', 'web', '-c', 'main', '--', 'sh', '-c', 'exit 3'], { version });
      assert.equal(failed.code, 3, failed.stderr);
      const piped = await kubectl(fx.kubeconfigPath, ['exec', '-i', 'web', '-c', 'main', '--', 'sh', '-c', 'cat; echo done'], { version, input: 'line one\nline two\n' });
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stdout, 'line one\nline two\ndone\n');
      assertProtocol(version, 'exec', from);
    });

    test(`kubectl ${version} exec -t: the command runs on a terminal`, async () => {
      await ready();
      // script gives kubectl a terminal of its own, so it asks for a TTY as it does for a user.
      const cmd = `${kubectlBinary(version)} --kubeconfig ${fx.kubeconfigPath} exec -it web -c main -- sh -c 'test -t 0 && echo on-a-tty'`;
      const child = spawn('script', ['-qec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
      assert.match(out, /on-a-tty/);
      assert.equal(code, 0, out);
    });

    test(`kubectl ${version} attach -i: stdin reaches the running container and its output comes back`, async () => {
      await ready();
      const from = node.seen.length;
      const child = spawn(kubectlBinary(version), ['--kubeconfig', fx.kubeconfigPath, 'attach', '-i', 'web', '-c', 'echo'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const word = `attached-${version}`;
      const seen = waitFor(() => out.includes(word), 15_000);
      child.stdin.write(`${word}\n`);
      const ok = await seen;
      child.kill('SIGTERM');
      assert.ok(ok, out);
      assertProtocol(version, 'attach', from);
    });

    test(`kubectl ${version} port-forward: a local port reaches the pod`, async () => {
      await ready();
      const from = node.seen.length;
      const child = spawn(kubectlBinary(version), ['--kubeconfig', fx.kubeconfigPath, 'port-forward', 'pod/web', ':8080'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      try {
        assert.ok(await waitFor(() => /Forwarding from 127\.0\.0\.1:\d+/.test(out), 15_000), out);
        const port = Number(/Forwarding from 127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
        assert.equal(await httpGet(port), 'hello-from-pod\n');
        assert.equal(await httpGet(port), 'hello-from-pod\n');
        assertProtocol(version, 'portForward', from);
      } finally {
        child.kill('SIGTERM');
      }
    });
}

test("the API server's refusals: container defaulting, options, upgrade required", async () => {
  await ready();
  const exec = (q: string): Promise<{ status: number; message: string }> =>
    fx.request('POST', `/api/v1/namespaces/default/pods/web/exec?${q}`).then((r) => ({ status: r.status, message: r.json().message }));
  assert.deepEqual(await exec('command=ls&stdout=true'), { status: 400, message: 'a container name must be specified for pod web, choose one of: [main echo]' });
  assert.deepEqual(await exec('command=ls&stdout=true&container=nope'), { status: 400, message: 'container nope is not valid for pod web' });
  // Streams and commands are the kubelet's to check (kube-apiserver passes the options on).
  assert.deepEqual(await exec('command=ls&container=main'), { status: 400, message: 'Upgrade request required' });
  assert.deepEqual(await exec('command=ls&stdout=true&container=main'), { status: 400, message: 'Upgrade request required' });
  const missing = await fx.request('POST', '/api/v1/namespaces/default/pods/absent/attach?stdout=true');
  assert.equal(missing.status, 404);
});
