import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeBundles } from './authentication-trust.js';

const cert = (body: string): string => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;

describe('extension-apiserver-authentication bundles', () => {
  it('keep what other servers published and add each certificate once', () => {
    assert.equal(mergeBundles(`${cert('A')}\n${cert('B')}\n`, `${cert('B')}\n${cert('C')}\n`), `${cert('A')}\n${cert('B')}\n${cert('C')}\n`);
    assert.equal(mergeBundles(undefined, cert('A')), `${cert('A')}\n`);
  });
});
