import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { enabledPlugins } from '../../admission/plugins/registry.js';
import { parseFlags } from './flags.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'test');
const stderr = (r: ReturnType<typeof run>) => (r.kind === 'exit' ? (r.stderr ?? '') : '');

describe('admission flags', () => {
  it('the chain runs kube order whatever the order of the lists', () => {
    const a = enabledPlugins(['AlwaysDeny', 'NamespaceExists', 'AlwaysPullImages'], ['ResourceQuota']);
    const b = enabledPlugins(['AlwaysPullImages', 'AlwaysDeny', 'NamespaceExists'], ['ResourceQuota']);
    assert.deepEqual(a, b);
    assert.equal(a[0], 'NamespaceLifecycle');
    assert.equal(a.at(-1), 'AlwaysDeny');
    assert.ok(a.indexOf('NamespaceExists') < a.indexOf('LimitRanger'));
    assert.ok(!a.includes('ResourceQuota'));
    assert.ok(a.indexOf('MutatingAdmissionWebhook') < a.indexOf('ValidatingAdmissionPolicy'));
  });

  it('unknown plugin names refuse to start; so does a name in both lists', () => {
    assert.match(stderr(run('--enable-admission-plugins=Bogus')), /enable-admission-plugins plugin "Bogus" is unknown/);
    assert.match(stderr(run('--disable-admission-plugins=Nope')), /disable-admission-plugins plugin "Nope" is unknown/);
    assert.match(stderr(run('--enable-admission-plugins=AlwaysDeny', '--disable-admission-plugins=AlwaysDeny')), /\[AlwaysDeny\] in enable-admission-plugins and disable-admission-plugins overlapped/);
  });

  it('reads per-plugin configuration inline and from a path relative to the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admission-'));
    writeFileSync(join(dir, 'eventratelimit.yaml'), 'apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits: []\n');
    const file = join(dir, 'admission.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: AdmissionConfiguration',
        'plugins:',
        '- name: EventRateLimit',
        '  path: eventratelimit.yaml',
        '- name: PodSecurity',
        '  configuration:',
        '    apiVersion: pod-security.admission.config.k8s.io/v1',
        '    kind: PodSecurityConfiguration',
      ].join('\n'),
    );
    const r = run(`--admission-control-config-file=${file}`);
    assert.equal(r.kind, 'run');
    const config = r.kind === 'run' ? r.options.admission?.pluginConfig : undefined;
    assert.deepEqual(config?.get('EventRateLimit'), { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits: [] });
    assert.equal((config?.get('PodSecurity') as { kind: string }).kind, 'PodSecurityConfiguration');
    assert.match(stderr(run(`--admission-control-config-file=${join(dir, 'missing.yaml')}`)), /unable to read admission control configuration from/);
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\n');
    assert.match(stderr(run(`--admission-control-config-file=${file}`)), /expected kind AdmissionConfiguration/);
  });
});
