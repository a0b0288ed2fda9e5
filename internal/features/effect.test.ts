import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capstanFeatureGates, gatesWithoutEffect } from './effect.js';
import { defaultFeatureGates, knownFeatureGates, parseFeatureGates } from './gates.js';

describe('gates without effect in Capstan', () => {
  it('names the gates set away from their defaults that Capstan does not read, and only those', () => {
    assert.deepEqual(gatesWithoutEffect(defaultFeatureGates), []);
    assert.deepEqual(gatesWithoutEffect(parseFeatureGates(['WatchList=true,APIResponseCompression=false,NodeSwap=true'])), []);
    const [warning] = gatesWithoutEffect(parseFeatureGates(['NodeSwap=false,DynamicResourceAllocation=true,InPlacePodVerticalScaling=true']));
    assert.match(warning ?? '', /change nothing in Capstan .*: DynamicResourceAllocation=true,NodeSwap=false$/);
  });

  it('lists only gates kube 1.33 knows', () => {
    for (const name of Object.keys(capstanFeatureGates)) assert.ok(knownFeatureGates[name], name);
  });
});
