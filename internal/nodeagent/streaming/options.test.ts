import { test } from 'node:test';
import assert from 'node:assert/strict';
import { portForwardPorts, streamOptions } from './options.js';

test("the kubelet's exec/attach query: only \"1\" turns a stream on, a TTY drops stderr", () => {
  assert.deepEqual(streamOptions(new URLSearchParams('input=1&output=1&error=1&tty=1')), { stdin: true, stdout: true, stderr: false, tty: true });
  assert.deepEqual(streamOptions(new URLSearchParams('output=1&error=1')), { stdin: false, stdout: true, stderr: true, tty: false });
  assert.throws(() => streamOptions(new URLSearchParams('output=true&tty=1&error=1')), /^Error: you must specify at least 1 of stdin, stdout, stderr$/);
});

test("a WebSocket port-forward's ports, with kubelet's messages", () => {
  assert.deepEqual(portForwardPorts(new URLSearchParams('port=80&port=8080')), [80, 8080]);
  assert.throws(() => portForwardPorts(new URLSearchParams('')), /query parameter "port" is required/);
  assert.throws(() => portForwardPorts(new URLSearchParams('port=http')), /unable to parse "http" as a port: strconv.ParseUint: parsing "http": invalid syntax/);
  assert.throws(() => portForwardPorts(new URLSearchParams('port=70000')), /value out of range/);
  assert.throws(() => portForwardPorts(new URLSearchParams('port=0')), /port "0" must be > 0/);
});
