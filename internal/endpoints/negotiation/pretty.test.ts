import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { wantsPretty } from './writer.js';

const req = (ua?: string) => ({ headers: ua === undefined ? {} : { 'user-agent': ua } }) as unknown as IncomingMessage;
const q = (s: string) => new URLSearchParams(s);

test('pretty output as kube\'s isPrettyPrint decides it', () => {
  for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(wantsPretty(req('kubectl/v1.33'), q(`pretty=${v}`)), true, v);
  for (const v of ['0', 'false', 'yes', 'tRuE']) assert.equal(wantsPretty(req('curl/8'), q(`pretty=${v}`)), false, v);
  assert.equal(wantsPretty(req('curl/8.5'), q('')), true);
  assert.equal(wantsPretty(req('Wget/1.21'), q('')), true);
  assert.equal(wantsPretty(req('Mozilla/5.0 (X11; Linux x86_64)'), q('')), true, 'a browser');
  assert.equal(wantsPretty(req('curl/8'), q('pretty=')), true, 'an empty pretty leaves it to the client');
  assert.equal(wantsPretty(req('kubectl/v1.33'), q('')), false);
  assert.equal(wantsPretty(req(), q('')), false);
});
