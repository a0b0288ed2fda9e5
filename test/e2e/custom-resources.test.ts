/**
 * Custom resources with the real kubectl: a CRD applied with kubectl, then its resource applied,
 * listed with the printer columns (and -o wide for priority 1), by short name and in `get all`
 * (category all), with custom columns, scaled through the scale subresource, merge-patched,
 * applied server-side, and deleted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { establish, eventually, widgetCrd, widgetVersion } from '../support/crds.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();

const widgetYaml = (color: string, replicas: number): string =>
  stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { color, size: 3, replicas, selector: 'app=w1' } });

async function run(args: string[], input?: string): Promise<string> {
  const r = await kubectl(fx.kubeconfigPath, args, input !== undefined ? { input } : {});
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

describe('custom resources with kubectl', () => {
  it('applies a CRD and drives its resource: get, custom columns, scale, patch, server-side apply', async () => {
    assert.match(await run(['apply', '-f', '-'], stringify(widgetCrd())), /customresourcedefinition.apiextensions.k8s.io\/widgets.example.com created/);
    await establish(fx, 'widgets.example.com');
    await eventually(() => fx.request('GET', '/apis/example.com/v1/namespaces/default/widgets'), (r) => r.status === 200, 5000);

    assert.match(await run(['apply', '-f', '-'], widgetYaml('red', 1)), /widget.example.com\/w1 created/);
    const table = await run(['get', 'widgets']);
    const [header, row] = table.trim().split('\n');
    assert.match(header as string, /^NAME\s+COLOR\s+SIZE\s+AGE$/);
    assert.match(row as string, /^w1\s+red\s+3\s+\d+s$/);
    assert.match(await run(['get', 'widgets', '-o', 'wide']), /^NAME\s+COLOR\s+SIZE\s+READY\s+AGE$/m);
    assert.match(await run(['get', 'wd']), /^w1\s+red/m);
    assert.match(await run(['get', 'all']), /widget\.example\.com\/w1/);
    const custom = await run(['get', 'widgets', '-o', 'custom-columns=NAME:.metadata.name,COLOR:.spec.color,REPLICAS:.spec.replicas']);
    assert.match(custom, /^NAME\s+COLOR\s+REPLICAS\nw1\s+red\s+1\n$/);

    assert.match(await run(['scale', 'widget/w1', '--replicas=4']), /widget.example.com\/w1 scaled/);
    assert.equal(await run(['get', 'widget', 'w1', '-o', 'jsonpath={.spec.replicas}']), '4');

    assert.match(await run(['patch', 'widget', 'w1', '--type=merge', '-p', '{"spec":{"color":"blue"}}']), /widget.example.com\/w1 patched/);
    assert.equal(await run(['get', 'widget', 'w1', '-o', 'jsonpath={.spec.color}']), 'blue');

    assert.match(await run(['apply', '--server-side', '--force-conflicts', '-f', '-'], widgetYaml('green', 4)), /widget.example.com\/w1 serverside-applied/);
    assert.equal(await run(['get', 'widget', 'w1', '-o', 'jsonpath={.spec.color}']), 'green');
    assert.equal(await run(['get', 'widget', 'w1', '-o', 'jsonpath={.metadata.generation}']), '4');

    assert.match(await run(['delete', 'widget', 'w1']), /widget.example.com "w1" deleted/);
    const left = await kubectl(fx.kubeconfigPath, ['get', 'widget', 'w1']);
    assert.notEqual(left.code, 0);
    assert.match(left.stderr, /widgets.example.com "w1" not found/);
  });

  it('reads one object in either version of a two-version CRD, warning on the deprecated one', async () => {
    const crd = widgetCrd({ group: 'v.example.com', plural: 'dials', kind: 'Dial', versions: [widgetVersion('v1alpha1', false, { deprecated: true }), widgetVersion('v1', true)] });
    crd.spec.names.shortNames = [];
    crd.spec.names.categories = [];
    await run(['apply', '-f', '-'], stringify(crd));
    await establish(fx, 'dials.v.example.com');
    await eventually(() => fx.request('GET', '/apis/v.example.com/v1alpha1/namespaces/default/dials'), (r) => r.status === 200, 5000);
    const old = stringify({ apiVersion: 'v.example.com/v1alpha1', kind: 'Dial', metadata: { name: 'd1', namespace: 'default' }, spec: { color: 'amber' } });
    const applied = await kubectl(fx.kubeconfigPath, ['apply', '-f', '-'], { input: old });
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stderr, /Warning: v\.example\.com\/v1alpha1 Dial is deprecated/);
    assert.equal(await run(['get', 'dials.v1.v.example.com', 'd1', '-o', 'jsonpath={.apiVersion} {.spec.color}']), 'v.example.com/v1 amber');
    const viaOld = await kubectl(fx.kubeconfigPath, ['get', 'dials.v1alpha1.v.example.com', 'd1', '-o', 'jsonpath={.apiVersion}']);
    assert.equal(viaOld.stdout, 'v.example.com/v1alpha1');
    assert.match(viaOld.stderr, /Warning: v\.example\.com\/v1alpha1 Dial is deprecated/);
  });
});
