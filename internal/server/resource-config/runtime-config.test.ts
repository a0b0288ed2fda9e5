import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addRuntimeConfig, completeRuntimeConfig, resolveRuntimeConfig, type RuntimeConfigMap } from './runtime-config.js';

function parse(...occurrences: string[]): RuntimeConfigMap {
  const map: RuntimeConfigMap = new Map();
  for (const o of occurrences) addRuntimeConfig(map, o);
  return map;
}

const resolve = (...occurrences: string[]) => resolveRuntimeConfig(parse(...occurrences), { enablePriorityAndFairness: true });
// Keys that turn flowcontrol.apiserver.k8s.io/v1 off need --enable-priority-and-fairness=false.
const resolveNoAPF = (...occurrences: string[]) => resolveRuntimeConfig(parse(...occurrences), { enablePriorityAndFairness: false });

describe('--runtime-config parsing', () => {
  it('reads comma-separated pairs as pflag does: trimmed, a bare key is "", later occurrences add', () => {
    assert.deepEqual([...parse(' batch/v1 = false ,,api/alpha', 'apps/v1=true')], [
      ['batch/v1', 'false'],
      ['api/alpha', ''],
      ['apps/v1', 'true'],
    ]);
    assert.deepEqual([...parse('a=b=c')], [['a', 'b=c']]);
  });

  it('rewrites the core group spellings to /v1 and drops api/legacy', () => {
    assert.deepEqual([...completeRuntimeConfig(parse('v1=true,api/legacy=false'))], [['/v1', 'true']]);
    assert.deepEqual([...completeRuntimeConfig(parse('api/v1=false'))], [['/v1', 'false']]);
    // kube's rewrite turns a core resource key into the whole core version.
    assert.deepEqual([...completeRuntimeConfig(parse('v1/pods=false'))], [['/v1', 'false']]);
    assert.deepEqual([...completeRuntimeConfig(parse('api/v1/pods=true'))], [['/v1', 'true']]);
  });
});

describe('kube 1.33 default enablement', () => {
  const c = resolve();
  it('serves GA versions', () => {
    assert.equal(c.resourceEnabled('', 'v1', 'pods'), true);
    assert.equal(c.resourceEnabled('batch', 'v1', 'jobs'), true);
    assert.equal(c.resourceEnabled('networking.k8s.io', 'v1', 'servicecidrs'), true);
    assert.equal(c.resourceEnabled('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas'), true);
    assert.equal(c.resourceEnabled('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'), true);
    assert.equal(c.resourceEnabled('apiregistration.k8s.io', 'v1', 'apiservices'), true);
  });
  it('leaves every beta and alpha version off', () => {
    for (const [g, v] of [
      ['admissionregistration.k8s.io', 'v1beta1'],
      ['admissionregistration.k8s.io', 'v1alpha1'],
      ['certificates.k8s.io', 'v1beta1'],
      ['coordination.k8s.io', 'v1beta1'],
      ['coordination.k8s.io', 'v1alpha2'],
      ['networking.k8s.io', 'v1beta1'],
      ['resource.k8s.io', 'v1beta2'],
      ['resource.k8s.io', 'v1alpha3'],
      ['storage.k8s.io', 'v1beta1'],
      ['internal.apiserver.k8s.io', 'v1alpha1'],
      ['storagemigration.k8s.io', 'v1alpha1'],
    ] as const) {
      assert.equal(c.versionEnabled(g, v), false, `${g}/${v}`);
    }
  });
});

describe('--runtime-config keys', () => {
  it('group/version=false turns a version off, true (or empty) on', () => {
    assert.equal(resolve('batch/v1=false').resourceEnabled('batch', 'v1', 'jobs'), false);
    assert.equal(resolve('storagemigration.k8s.io/v1alpha1=true').resourceEnabled('storagemigration.k8s.io', 'v1alpha1', 'storageversionmigrations'), true);
    assert.equal(resolve('storagemigration.k8s.io/v1alpha1').versionEnabled('storagemigration.k8s.io', 'v1alpha1'), true);
    assert.equal(resolve('batch/v1=0').versionEnabled('batch', 'v1'), false);
    assert.equal(resolve('batch/v1=F').versionEnabled('batch', 'v1'), false);
  });

  it('the core group by v1, api/v1 and /v1', () => {
    assert.equal(resolveNoAPF('api/all=false,v1=true').versionEnabled('', 'v1'), true);
    assert.equal(resolveNoAPF('api/all=false,api/v1=true').versionEnabled('', 'v1'), true);
    assert.equal(resolve('/v1/pods=false').resourceEnabled('', 'v1', 'pods'), false);
    assert.equal(resolve('/v1/pods=false').resourceEnabled('', 'v1', 'services'), true);
  });

  it('group/version/resource turns one resource on or off; it outranks its version and the api/ keys', () => {
    const c = resolve('batch/v1/cronjobs=false');
    assert.equal(c.resourceEnabled('batch', 'v1', 'cronjobs'), false);
    assert.equal(c.resourceEnabled('batch', 'v1', 'jobs'), true);
    const on = resolveNoAPF('api/all=false,v1=true,batch/v1=false,batch/v1/jobs=true');
    assert.equal(on.resourceEnabled('batch', 'v1', 'jobs'), true);
    assert.equal(on.resourceEnabled('batch', 'v1', 'cronjobs'), false);
    assert.equal(on.resourceEnabled('apps', 'v1', 'deployments'), false);
    const alpha = resolve('resource.k8s.io/v1alpha3/devicetaintrules=true');
    assert.equal(alpha.resourceEnabled('resource.k8s.io', 'v1alpha3', 'devicetaintrules'), true);
    assert.equal(alpha.resourceEnabled('resource.k8s.io', 'v1alpha3', 'resourceclaims'), false);
  });

  it('api/all, api/ga, api/beta and api/alpha, applied in that order, under the version keys', () => {
    const all = resolve('api/all=true');
    assert.equal(all.versionEnabled('coordination.k8s.io', 'v1alpha2'), true);
    assert.equal(all.versionEnabled('resource.k8s.io', 'v1beta2'), true);
    const alpha = resolve('api/alpha=true');
    assert.equal(alpha.versionEnabled('coordination.k8s.io', 'v1alpha2'), true);
    assert.equal(alpha.versionEnabled('coordination.k8s.io', 'v1beta1'), false);
    const beta = resolve('api/beta=true');
    assert.equal(beta.versionEnabled('coordination.k8s.io', 'v1beta1'), true);
    assert.equal(beta.versionEnabled('coordination.k8s.io', 'v1alpha2'), false);
    const ga = resolveNoAPF('api/ga=false,api/beta=true,v1=true');
    assert.equal(ga.versionEnabled('apps', 'v1'), false);
    assert.equal(ga.versionEnabled('', 'v1'), true);
    assert.equal(ga.versionEnabled('networking.k8s.io', 'v1beta1'), true);
    // api/all=false then api/alpha=true: the later special key wins for alpha versions.
    const mixed = resolveNoAPF('api/alpha=true,api/all=false,apps/v1=true');
    assert.equal(mixed.versionEnabled('storagemigration.k8s.io', 'v1alpha1'), true);
    assert.equal(mixed.versionEnabled('batch', 'v1'), false);
    assert.equal(mixed.versionEnabled('apps', 'v1'), true);
    // A resource preference of a version is dropped when its version is set by an api/ key.
    assert.equal(resolve('api/all=true,batch/v1/jobs=false').resourceEnabled('batch', 'v1', 'jobs'), false);
  });

  it('a version kube knows but no longer serves is accepted', () => {
    assert.equal(resolve('batch/v1beta1=true').versionEnabled('batch', 'v1beta1'), true);
    assert.equal(resolve('extensions/v1beta1=false').versionEnabled('extensions', 'v1beta1'), false);
  });
});

describe('--runtime-config errors (kube texts)', () => {
  const fails = (msg: string, ...o: string[]) => assert.throws(() => resolve(...o), { message: msg });
  it('refuses api/all=false alone (with the priority and fairness conflict when that is on)', () => {
    assert.throws(() => resolveNoAPF('api/all=false'), { message: 'invalid key with only api/all=false' });
    fails('[--runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true, invalid key with only api/all=false]', 'api/all=false');
  });
  it('refuses unknown groups, listing them all', () => fails('unknown api groups foo.example.com,bar', 'foo.example.com/v1=true,bar/v1=false'));
  it('refuses a key that is no group version', () => {
    fails('runtime-config invalid key foo', 'foo=true');
    fails('runtime-config invalid key a/b/c/d', 'a/b/c/d=true');
  });
  it('refuses a version its group does not have', () => fails('group version batch/v9 that has not been registered', 'batch/v9=true'));
  it('refuses values that are no bool', () => {
    fails('invalid value api/all=yes', 'api/all=yes');
    fails('invalid value api/alpha=', 'api/alpha');
    fails('invalid value of batch/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax', 'batch/v1=maybe');
  });
  it('refuses a resource that is not lowercase', () =>
    fails('invalid key batch/v1/Jobs: group/version/resource and resource is always lowercase plural, not "Jobs"', 'batch/v1/Jobs=false'));
  it('refuses turning flowcontrol v1 off while priority and fairness is on', () => {
    fails('--runtime-config=flowcontrol.apiserver.k8s.io/v1=false conflicts with --enable-priority-and-fairness=true', 'flowcontrol.apiserver.k8s.io/v1=false');
    fails('--runtime-config=api/ga=false conflicts with --enable-priority-and-fairness=true', 'api/ga=false');
    fails('--runtime-config=api/all=false conflicts with --enable-priority-and-fairness=true', 'api/all=false,v1=true');
    // A more specific true before the broad false wins, as in kube.
    assert.equal(resolve('api/all=false,v1=true,flowcontrol.apiserver.k8s.io/v1=true').versionEnabled('flowcontrol.apiserver.k8s.io', 'v1'), true);
    assert.equal(
      resolveRuntimeConfig(parse('flowcontrol.apiserver.k8s.io/v1=false'), { enablePriorityAndFairness: false }).versionEnabled('flowcontrol.apiserver.k8s.io', 'v1'),
      false,
    );
  });
  it('reports several validation errors together', () =>
    fails('[--runtime-config=api/ga=false conflicts with --enable-priority-and-fairness=true, unknown api groups nope]', 'api/ga=false,nope/v1=true'));
});
