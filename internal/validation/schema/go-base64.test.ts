import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { base64DecodeError } from './go-base64.js';

describe('base64.StdEncoding.Decode errors ([]byte fields)', () => {
  const cases: [string, string | undefined][] = [
    ['', undefined],
    ['YWRtaW4=', undefined],
    ['YWRtaQ==', undefined],
    ['YWRt', undefined],
    ['YWRt\naW4=\r\n', undefined],
    // kubectl's classic: a plain word where base64 belongs.
    ['admin', 'illegal base64 data at input byte 4'],
    ['APIKEY_BASE64', 'illegal base64 data at input byte 6'],
    ['<foo>', 'illegal base64 data at input byte 0'],
    ['abc', 'illegal base64 data at input byte 0'],
    ['YWRtaW4', 'illegal base64 data at input byte 4'],
    ['a===', 'illegal base64 data at input byte 1'],
    ['ab=c', 'illegal base64 data at input byte 2'],
    ['ab=', 'illegal base64 data at input byte 3'],
    ['ab==c', 'illegal base64 data at input byte 4'],
    ['YWRtaW4=YWRt', 'illegal base64 data at input byte 8'],
    ['YW\nRt!', 'illegal base64 data at input byte 5'],
    // Offsets count UTF-8 bytes.
    ['éYWRt', 'illegal base64 data at input byte 0'],
    ['YWRtaé==', 'illegal base64 data at input byte 5'],
  ];
  for (const [text, want] of cases) {
    test(JSON.stringify(text), () => assert.equal(base64DecodeError(text), want));
  }
});
