import assert from 'node:assert/strict';
import { test } from 'node:test';
import { campaignCases } from './campaign.js';

test('campaignCases scales by CAMPAIGN_SCALE and refuses nonsense', () => {
  const saved = process.env.CAMPAIGN_SCALE;
  try {
    delete process.env.CAMPAIGN_SCALE;
    assert.equal(campaignCases(200), 200);
    process.env.CAMPAIGN_SCALE = '2.5';
    assert.equal(campaignCases(200), 500);
    process.env.CAMPAIGN_SCALE = '0.001';
    assert.equal(campaignCases(200), 1);
    process.env.CAMPAIGN_SCALE = 'lots';
    assert.throws(() => campaignCases(200), /CAMPAIGN_SCALE must be a positive number/);
  } finally {
    if (saved === undefined) delete process.env.CAMPAIGN_SCALE;
    else process.env.CAMPAIGN_SCALE = saved;
  }
});
