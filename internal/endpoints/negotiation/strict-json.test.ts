import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStrictJson } from './strict-json.js';

test('numbers written with a fraction or an exponent are recorded by path, as written', () => {
  const parsed = parseStrictJson('{"a":"v1.2 2e5","b":1e3,"c":[1.0,true,false,-0.0e1,7],"d":{"e":2E3},"f":10}');
  assert.deepEqual(parsed.value, { a: 'v1.2 2e5', b: 1000, c: [1, true, false, -0, 7], d: { e: 2000 }, f: 10 });
  assert.deepEqual([...(parsed.numberLiterals ?? [])], [['b', '1e3'], ['c[0]', '1.0'], ['c[3]', '-0.0e1'], ['d.e', '2E3']]);
});

test('such digits inside strings and keys, and true and false, record nothing', () => {
  for (const text of ['{"a":"1e3","b":"1.0","1.5":true,"x":false,"n":[1,2,-3]}', '{"k\\"1.0":"2E3"}', '[true,false,null,12]']) {
    assert.equal(parseStrictJson(text).numberLiterals, undefined, text);
  }
});

test('a literal at the end of the text, after every string, is seen', () => {
  assert.deepEqual([...(parseStrictJson('{"a":"x","b":1.5}').numberLiterals ?? [])], [['b', '1.5']]);
  assert.deepEqual([...(parseStrictJson('[1e3]').numberLiterals ?? [])], [['[0]', '1e3']]);
});
