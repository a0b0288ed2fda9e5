import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import { test } from 'node:test';
import { setWarnings } from './writer.js';
import { warningHeaderValue, warningHeaderValues } from './warning-header.js';

test('a warning is quoted as kube quotes it: only " and \\ escaped', () => {
  assert.equal(warningHeaderValue('unknown field "spec.x\\y"'), '299 - "unknown field \\"spec.x\\\\y\\""');
});

test('a warning with a control character is dropped, as kube drops it', () => {
  assert.equal(warningHeaderValue('bad\u0000name'), undefined);
  assert.equal(warningHeaderValue('line\nbreak'), undefined);
  assert.equal(warningHeaderValue('c1 \u0085'), undefined);
  assert.deepEqual(warningHeaderValues(['a', 'b\u0007', 'c']), ['299 - "a"', '299 - "c"']);
});

test('non-ASCII and lone surrogates reach the client as UTF-8 (a lone surrogate as U+FFFD)', async () => {
  // The body fuzzer's input: a duplicate field named with an emoji and a lone surrogate made
  // node:http throw ERR_INVALID_CHAR from setHeader while the error answer was being written.
  const texts = ['duplicate field "metadata.labels.😀"', 'unknown field "\ud800é"'];
  const server = createServer((_req, res) => {
    setWarnings(res, texts);
    // A Buffer, as the writer sends: node writes headers joined to a string body in the body's encoding.
    res.end(Buffer.from('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const raw = await new Promise<string[]>((resolve) => get(`http://127.0.0.1:${port}/`, (res) => {
      res.resume();
      resolve(res.rawHeaders.filter((_, i) => res.rawHeaders[i - 1] === 'Warning'));
    }));
    assert.equal(raw.map((v) => Buffer.from(v, 'latin1').toString('utf8')).join(', '), '299 - "duplicate field \\"metadata.labels.😀\\"", 299 - "unknown field \\"\ufffdé\\""');
  } finally {
    server.close();
  }
});
