import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultFeatureGates, featureGatesHelp, knownFeatureGates, knownFeatureLines, parseFeatureGates } from './gates.js';

describe('feature gates: kube 1.33 defaults', () => {
  it('has kube 1.33 stages and defaults for the gates the API server reads', () => {
    assert.equal(defaultFeatureGates.enabled('APIResponseCompression'), true);
    assert.equal(defaultFeatureGates.enabled('WatchList'), false);
    assert.equal(defaultFeatureGates.enabled('ConsistentListFromCache'), true);
    assert.equal(defaultFeatureGates.enabled('MutatingAdmissionPolicy'), false);
    assert.equal(defaultFeatureGates.enabled('KMSv1'), false);
    assert.deepEqual(knownFeatureGates.CRDValidationRatcheting, { preRelease: '', default: true, lockToDefault: true });
    assert.deepEqual(knownFeatureGates.WatchList, { preRelease: 'BETA', default: false, lockToDefault: false });
    assert.deepEqual(knownFeatureGates.KMSv1, { preRelease: 'DEPRECATED', default: false, lockToDefault: false });
  });

  it('throws for a gate kube 1.33 does not know (removed after GA)', () => {
    assert.throws(() => defaultFeatureGates.enabled('RemainingItemCount'), /not registered/);
    assert.equal(knownFeatureGates.APIListChunking, undefined);
  });
});

describe('feature gates: --feature-gates', () => {
  it('sets gates from comma-separated pairs, repeated flags and the kube: prefix; later values win', () => {
    const g = parseFeatureGates(['WatchList=true,APIResponseCompression=false', 'kube:MutatingAdmissionPolicy=true', 'WatchList=false']);
    assert.equal(g.enabled('WatchList'), false);
    assert.equal(g.enabled('APIResponseCompression'), false);
    assert.equal(g.enabled('MutatingAdmissionPolicy'), true);
    assert.equal(g.explicitlySet('WatchList'), true);
    assert.equal(g.explicitlySet('StorageVersionHash'), false);
  });

  it('accepts Go bool spellings and skips empty pairs', () => {
    const g = parseFeatureGates(['WatchList=T,,StorageVersionHash=0, APIServerIdentity = FALSE']);
    assert.equal(g.enabled('WatchList'), true);
    assert.equal(g.enabled('StorageVersionHash'), false);
    assert.equal(g.enabled('APIServerIdentity'), false);
  });

  it('AllAlpha and AllBeta set every gate of their stage that was not set explicitly', () => {
    const g = parseFeatureGates(['AllAlpha=true,MutatingAdmissionPolicy=false,AllBeta=false,APIResponseCompression=true']);
    assert.equal(g.enabled('AllAlpha'), true);
    assert.equal(g.enabled('StorageVersionAPI'), true);
    assert.equal(g.enabled('MutatingAdmissionPolicy'), false);
    assert.equal(g.enabled('ConsistentListFromCache'), false);
    assert.equal(g.enabled('APIResponseCompression'), true);
    // GA and deprecated gates keep their defaults.
    assert.equal(g.enabled('CRDValidationRatcheting'), true);
    assert.equal(g.enabled('KMSv1'), false);
  });

  it('refuses unknown gates, locked gates set against their lock and bad values with kube messages', () => {
    assert.throws(() => parseFeatureGates(['RemainingItemCount=false']), { message: 'unrecognized feature gate: RemainingItemCount' });
    assert.throws(() => parseFeatureGates(['CRDValidationRatcheting=false']), { message: 'cannot set feature gate CRDValidationRatcheting to false, feature is locked to true' });
    assert.throws(() => parseFeatureGates(['CRDValidationRatcheting=false,StructuredAuthorizationConfiguration=false']), {
      message: '[cannot set feature gate CRDValidationRatcheting to false, feature is locked to true, cannot set feature gate StructuredAuthorizationConfiguration to false, feature is locked to true]',
    });
    assert.throws(() => parseFeatureGates(['WatchList=yes']), { message: 'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax' });
    assert.throws(() => parseFeatureGates(['WatchList']), { message: 'missing bool value for WatchList' });
    assert.throws(() => parseFeatureGates(['wardle:Foo=true']), { message: 'component not registered: wardle' });
  });

  it('allows a locked gate at its default and warns for GA and deprecated gates as kube logs', () => {
    const g = parseFeatureGates(['CRDValidationRatcheting=true,KMSv1=true,WatchList=true']);
    assert.equal(g.enabled('KMSv1'), true);
    assert.deepEqual(g.warnings, [
      'Setting GA feature gate CRDValidationRatcheting=true. It will be removed in a future release.',
      'Setting deprecated feature gate KMSv1=true. It will be removed in a future release.',
    ]);
  });
});

describe('feature gates: --help', () => {
  it('lists AllAlpha, AllBeta and every alpha and beta gate as kube prints them, GA and deprecated hidden', () => {
    const lines = knownFeatureLines();
    assert.equal(lines[0], 'kube:APIResponseCompression=true|false (BETA - default=true)');
    assert.ok(lines.includes('kube:AllAlpha=true|false (ALPHA - default=false)'));
    assert.ok(lines.includes('kube:AllBeta=true|false (BETA - default=false)'));
    assert.ok(lines.includes('kube:WatchList=true|false (BETA - default=false)'));
    assert.ok(lines.includes('kube:MutatingAdmissionPolicy=true|false (ALPHA - default=false)'));
    assert.ok(!lines.some((l) => l.startsWith('kube:CRDValidationRatcheting=') || l.startsWith('kube:KMSv1=')));
    assert.deepEqual([...lines].sort(), lines);
    assert.ok(lines.indexOf('kube:APIServingWithRoutine=true|false (ALPHA - default=false)') < lines.indexOf('kube:AllAlpha=true|false (ALPHA - default=false)'));
    assert.match(featureGatesHelp(), /^Comma-separated list of component:key=value pairs/);
    assert.ok(featureGatesHelp().endsWith(lines.join('\n')));
  });
});
