/**
 * The whole built-in API as kubectl sees it: `kubectl api-resources` on kubectl 1.27 and 1.33
 * lists every storage-backed resource of Kubernetes 1.33 with its short names, and `kubectl get
 * all` and `kubectl get <shortname>` work.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generatedGroups, generatedResources } from '../../api/gen/resources.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import { everyBuiltinAPI } from '../support/all-apis.js';

// Every built-in resource of 1.33, alpha and beta included.
const fx = useServer(everyBuiltinAPI());

/** Resources that are not plain storage (component statuses): served by later work. */
const virtualResources = new Set(['/componentstatuses']);

interface Expected {
  readonly name: string;
  readonly apiVersion: string;
  readonly shortNames: readonly string[];
  readonly kind: string;
  readonly namespaced: boolean;
}

/** What api-resources should list: each (group, resource) once, in the group's preferred version when it has it there. */
function expectedResources(): Expected[] {
  const out = new Map<string, Expected>();
  for (const g of generatedGroups) {
    const versions = [g.preferredVersion, ...g.versions.filter((v) => v !== g.preferredVersion)];
    for (const v of versions) {
      for (const r of generatedResources.filter((x) => x.group === g.group && x.version === v)) {
        const key = `${r.group}/${r.resource}`;
        if (virtualResources.has(key) || out.has(key)) continue;
        out.set(key, { name: r.resource, apiVersion: r.group ? `${r.group}/${v}` : v, shortNames: r.shortNames, kind: r.kind, namespaced: r.namespaced });
      }
    }
  }
  return [...out.values()];
}

for (const version of ['1.27', '1.33']) {
  describe(`kubectl ${version}`, () => {
    it('api-resources lists every storage-backed resource with its short names', async () => {
      const res = await kubectl(fx.kubeconfigPath, ['api-resources', '--no-headers'], { version });
      assert.equal(res.code, 0, res.stderr);
      const rows = res.stdout
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/));
      const missing: string[] = [];
      for (const e of expectedResources()) {
        const row = rows.find((r) => r[0] === e.name && r.includes(e.apiVersion) && r.includes(e.kind));
        if (!row) {
          missing.push(`${e.name} (${e.apiVersion})`);
          continue;
        }
        for (const s of e.shortNames) assert.ok(row[1]?.split(',').includes(s), `${e.name} has short name ${s}: ${row.join(' ')}`);
        assert.equal(row.includes(String(e.namespaced)), true, `${e.name} namespaced=${e.namespaced}`);
      }
      assert.deepEqual(missing, [], 'every resource is listed');
      for (const v of virtualResources) assert.ok(!rows.some((r) => r[0] === v.split('/')[1]), `${v} is not listed yet`);
    });

    it('get all and get <shortname> work', async () => {
      const all = await kubectl(fx.kubeconfigPath, ['get', 'all', '-A'], { version });
      assert.equal(all.code, 0, all.stderr);
      assert.match(all.stdout, /service\/kubernetes/);
      const shortNames = [...new Set(expectedResources().flatMap((e) => e.shortNames))];
      for (const s of shortNames) {
        const r = await kubectl(fx.kubeconfigPath, ['get', s, '-A'], { version });
        assert.equal(r.code, 0, `kubectl get ${s}: ${r.stderr}`);
      }
    });
  });
}
