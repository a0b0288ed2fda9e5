import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixedNanoTime, LineJoiner, parseCriRecord } from './cri-log.js';
import { readContainerLog, type ContainerLogOptions } from './read-logs.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-crilog-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = [
  '2024-05-01T10:00:00.1Z stdout F one',
  '2024-05-01T10:00:01.000000002Z stderr P tw',
  '2024-05-01T10:00:01.5Z stdout F three',
  '2024-05-01T10:00:02Z stderr F o',
  'garbage line',
  '2024-05-01T10:00:03.25+02:00 stdout F four',
  '',
].join('\n');

async function read(opts: Partial<ContainerLogOptions>, text = file): Promise<string> {
  const path = join(dir, `log-${Math.random()}`);
  await writeFile(path, text);
  const out: Buffer[] = [];
  await readContainerLog(path, { follow: false, timestamps: false, ...opts }, { write: (c) => void out.push(c) });
  return Buffer.concat(out).toString();
}

describe('CRI log records', () => {
  it('parses time, stream and tag, and refuses malformed lines', () => {
    const r = parseCriRecord(Buffer.from('2024-05-01T10:00:00.1Z stderr P hello world'));
    assert.equal(r?.stream, 'stderr');
    assert.equal(r?.full, false);
    assert.equal(r?.text.toString(), 'hello world');
    assert.equal(r?.timeMs, Date.parse('2024-05-01T10:00:00.100Z'));
    assert.equal(parseCriRecord(Buffer.from('2024-05-01T10:00:00Z stdin F x')), undefined);
    assert.equal(parseCriRecord(Buffer.from('nonsense')), undefined);
    assert.equal(parseCriRecord(Buffer.from('2024-05-01T10:00:00Z stdout F '))?.text.length, 0);
  });
  it('renders times with nine fraction digits as kubelet does', () => {
    assert.equal(fixedNanoTime('2024-05-01T10:00:00.1Z'), '2024-05-01T10:00:00.100000000Z');
    assert.equal(fixedNanoTime('2024-05-01T10:00:00Z'), '2024-05-01T10:00:00.000000000Z');
    assert.equal(fixedNanoTime('2024-05-01T10:00:03.25+02:00'), '2024-05-01T10:00:03.250000000+02:00');
  });
  it('joins partial records per stream', () => {
    const j = new LineJoiner();
    assert.equal(j.push(parseCriRecord(Buffer.from('2024-05-01T10:00:00Z stdout P a'))!), undefined);
    const other = j.push(parseCriRecord(Buffer.from('2024-05-01T10:00:01Z stderr F x'))!);
    assert.equal(other?.text.toString(), 'x\n');
    const line = j.push(parseCriRecord(Buffer.from('2024-05-01T10:00:02Z stdout F b'))!);
    assert.equal(line?.text.toString(), 'ab\n');
    assert.equal(line?.time, '2024-05-01T10:00:00Z');
  });
});

describe('reading a container log', () => {
  it('reads every line with partial records joined', async () => {
    assert.equal(await read({}), 'one\nthree\ntwo\nfour\n');
  });
  it('tails whole lines', async () => {
    assert.equal(await read({ tailLines: 2 }), 'two\nfour\n');
    assert.equal(await read({ tailLines: 0 }), '');
    assert.equal(await read({ tailLines: 100 }), 'one\nthree\ntwo\nfour\n');
  });
  it('leaves out lines before since', async () => {
    assert.equal(await read({ sinceMs: Date.parse('2024-05-01T10:00:01Z') }), 'three\ntwo\n');
    // A joined line carries its first record's time; +02:00 is two hours earlier in UTC.
    assert.equal(await read({ sinceMs: Date.parse('2024-05-01T10:00:01.6Z') }), '');
    assert.equal(await read({ sinceMs: Date.parse('2024-05-01T08:00:03Z') }), 'one\nthree\ntwo\nfour\n');
  });
  it('prefixes timestamps', async () => {
    assert.equal(await read({ timestamps: true, tailLines: 1 }), '2024-05-01T10:00:03.250000000+02:00 four\n');
  });
  it('stops at limitBytes, mid-line', async () => {
    assert.equal(await read({ limitBytes: 6 }), 'one\nth');
    assert.equal(await read({ limitBytes: 1, timestamps: true }), '2');
  });
  it('writes a partial line the file ends inside of', async () => {
    assert.equal(await read({}, '2024-05-01T10:00:00Z stdout F a\n2024-05-01T10:00:01Z stdout P b\n'), 'a\nb');
  });
  it('follows appended lines and rotation until the container stops', async () => {
    const path = join(dir, 'follow.log');
    await writeFile(path, '2024-05-01T10:00:00Z stdout F first\n');
    let running = true;
    const out: string[] = [];
    let wrote!: () => void;
    let seen = new Promise<void>((r) => (wrote = r));
    const done = readContainerLog(path, { follow: true, timestamps: false }, { write: (c) => { out.push(c.toString()); wrote(); } }, { isRunning: async () => running, pollMs: 50 });
    await seen;
    seen = new Promise<void>((r) => (wrote = r));
    await appendFile(path, '2024-05-01T10:00:01Z stdout F second\n');
    await seen;
    // Rotation: the runtime's file is renamed away and a new one started at the same path.
    seen = new Promise<void>((r) => (wrote = r));
    await rename(path, `${path}.20240501-100002`);
    await writeFile(path, '2024-05-01T10:00:03Z stdout F third\n');
    await seen;
    running = false;
    await done;
    assert.deepEqual(out.join(''), 'first\nsecond\nthird\n');
  });
  it('follow ends at once for a stopped container, after the whole file', async () => {
    const path = join(dir, 'stopped.log');
    await writeFile(path, '2024-05-01T10:00:00Z stdout F only\n');
    const out: string[] = [];
    await readContainerLog(path, { follow: true, timestamps: false, tailLines: 1 }, { write: (c) => void out.push(c.toString()) }, { isRunning: async () => false });
    assert.equal(out.join(''), 'only\n');
  });
});
