/**
 * kubectl's update mechanisms against the server, on kubectl 1.27 and the newest (1.33):
 * client-side apply, server-side apply with field managers and conflicts, diff, edit, strategic
 * patches, scale, server-side dry-run and field validation.
 */
import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function deployment(ns: string, opts: { image: string; labels?: Record<string, string>; replicas?: number; extra?: string }): string {
  const labels = Object.entries(opts.labels ?? {})
    .map(([k, v]) => `\n    ${k}: ${v}`)
    .join('');
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels:
    app: web${labels}
spec:
  replicas: ${opts.replicas ?? 2}${opts.extra ?? ''}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: ${opts.image}
`;
}

for (const version of ['1.27', '1.33']) {
  const ns = `apply-${version.replace('.', '-')}`;
  const k = (args: string[], env?: Record<string, string>) => kubectl(fx.kubeconfigPath, args, { version, ...(env ? { env } : {}) });
  const file = (name: string) => join(fx.dir, `${ns}-${name}`);

  describe(`kubectl ${version}: update mechanisms`, () => {
    it('setup', async () => {
      ok(await k(['create', 'namespace', ns]), 'create namespace');
    });

    it('apply -f twice: a changed image and a removed label (client-side apply)', async () => {
      await writeFile(file('d1.yaml'), deployment(ns, { image: 'nginx:1.25', labels: { tier: 'frontend' } }));
      ok(await k(['apply', '-f', file('d1.yaml')]), 'first apply');
      const first = JSON.parse(ok(await k(['-n', ns, 'get', 'deploy', 'web', '-o', 'json']), 'get'));
      assert.equal(first.metadata.labels.tier, 'frontend');
      assert.ok(first.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
      await writeFile(file('d2.yaml'), deployment(ns, { image: 'nginx:1.26' }));
      ok(await k(['apply', '-f', file('d2.yaml')]), 'second apply');
      const second = JSON.parse(ok(await k(['-n', ns, 'get', 'deploy', 'web', '-o', 'json']), 'get'));
      assert.equal(second.spec.template.spec.containers[0].image, 'nginx:1.26');
      assert.equal(second.metadata.labels.tier, undefined, 'the label apply no longer sets is gone');
      assert.equal(second.metadata.labels.app, 'web');
    });

    it('diff -f shows the change and exits 1', async () => {
      await writeFile(file('d3.yaml'), deployment(ns, { image: 'nginx:1.27' }));
      const r = await k(['diff', '-f', file('d3.yaml')], { KUBECTL_EXTERNAL_DIFF: 'diff -u' });
      assert.equal(r.code, 1, `diff exits 1 when there are differences: ${r.stderr}`);
      assert.match(r.stdout, /^-.*image: nginx:1\.26$/m);
      assert.match(r.stdout, /^\+.*image: nginx:1\.27$/m);
      const live = JSON.parse(ok(await k(['-n', ns, 'get', 'deploy', 'web', '-o', 'json']), 'get'));
      assert.equal(live.spec.template.spec.containers[0].image, 'nginx:1.26', 'diff changes nothing');
    });

    it('patch --type=strategic adds a container port; scale', async () => {
      const patch = '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","ports":[{"containerPort":8080}]}]}}}}';
      ok(await k(['-n', ns, 'patch', 'deploy', 'web', '--type=strategic', '-p', patch]), 'strategic patch');
      const obj = JSON.parse(ok(await k(['-n', ns, 'get', 'deploy', 'web', '-o', 'json']), 'get'));
      const c = obj.spec.template.spec.containers;
      assert.equal(c.length, 1, 'containers merge by name');
      assert.equal(c[0].image, 'nginx:1.26');
      assert.deepEqual(c[0].ports, [{ containerPort: 8080, protocol: 'TCP' }]);
      ok(await k(['-n', ns, 'scale', 'deploy/web', '--replicas=4']), 'scale');
      assert.equal(ok(await k(['-n', ns, 'get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}']), 'get'), '4');
    });

    it('edit with EDITOR set to a sed script', async () => {
      const editor = file('editor.sh');
      await writeFile(editor, '#!/bin/sh\nsed -i "s/image: nginx:1.26/image: nginx:edited/" "$1"\n');
      await chmod(editor, 0o755);
      ok(await k(['-n', ns, 'edit', 'deploy', 'web'], { EDITOR: editor, KUBE_EDITOR: editor }), 'edit');
      assert.equal(ok(await k(['-n', ns, 'get', 'deploy', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']), 'get'), 'nginx:edited');
    });

    it('apply --server-side by two field managers: conflict, then --force-conflicts', async () => {
      const cm = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\n  namespace: ${ns}\ndata:\n  key: ${value}\n`;
      await writeFile(file('ssa-a.yaml'), cm('from-a'));
      ok(await k(['apply', '--server-side', '--field-manager=manager-a', '-f', file('ssa-a.yaml')]), 'apply a');
      await writeFile(file('ssa-b.yaml'), cm('from-b'));
      const conflict = await k(['apply', '--server-side', '--field-manager=manager-b', '-f', file('ssa-b.yaml')]);
      assert.notEqual(conflict.code, 0);
      assert.match(conflict.stderr, /conflict/i);
      assert.match(conflict.stderr, /manager-a/);
      assert.match(conflict.stderr, /\.data\.key/);
      ok(await k(['apply', '--server-side', '--field-manager=manager-b', '--force-conflicts', '-f', file('ssa-b.yaml')]), 'forced apply');
      const obj = JSON.parse(ok(await k(['-n', ns, 'get', 'cm', 'ssa', '-o', 'json', '--show-managed-fields']), 'get'));
      assert.equal(obj.data.key, 'from-b');
      const managers = obj.metadata.managedFields.map((m: { manager: string; operation: string }) => `${m.manager}/${m.operation}`);
      assert.ok(managers.includes('manager-b/Apply'), managers.join(','));
    });

    it('create --dry-run=server leaves nothing behind', async () => {
      const out = ok(await k(['-n', ns, 'create', 'configmap', 'dry', '--from-literal=a=b', '--dry-run=server', '-o', 'json']), 'create --dry-run=server');
      assert.equal(JSON.parse(out).metadata.name, 'dry');
      const gone = await k(['-n', ns, 'get', 'cm', 'dry']);
      assert.notEqual(gone.code, 0);
    });

    it('apply --validate=strict refuses an unknown field; --validate=warn prints the warning', async () => {
      await writeFile(file('bad.yaml'), deployment(ns, { image: 'nginx:1.25', extra: '\n  bogusField: true' }).replace('name: web', 'name: web2'));
      const strict = await k(['apply', '--validate=strict', '-f', file('bad.yaml')]);
      assert.notEqual(strict.code, 0);
      assert.match(strict.stderr, /strict decoding error: unknown field "spec\.bogusField"/);
      const warn = await k(['apply', '--validate=warn', '-f', file('bad.yaml')]);
      ok(warn, 'apply --validate=warn');
      assert.match(warn.stderr, /Warning: unknown field "spec\.bogusField"/);
    });
  });
}
