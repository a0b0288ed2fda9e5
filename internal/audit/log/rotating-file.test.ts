import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { AuditEvent } from '../interface.js';
import { LogBackend } from './backend.js';
import { openLogSink } from './open.js';
import { backupTimestamp, RotatingFile } from './rotating-file.js';

const kib = 1024;
const line = (c: string, size: number): string => `${c.repeat(size - 1)}\n`;
const backupName = /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log(\.gz)?$/;

describe('audit log rotation (lumberjack)', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-rotate-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names backups <name>-<UTC time>.<ext>', () => {
    assert.equal(backupTimestamp(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 67))), '2025-01-02T03-04-05.067');
  });

  it('rotates before a line that would pass maxSize, and gzips the backup', async () => {
    const filename = join(dir, 'a', 'audit.log');
    const f = new RotatingFile({ filename, maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: true });
    await Promise.all([f.write(line('a', 400 * kib)), f.write(line('b', 400 * kib)), f.write(line('c', 400 * kib))]);
    await f.write(line('d', 10));
    await f.close();
    const names = await readdir(join(dir, 'a'));
    const backups = names.filter((n) => n !== 'audit.log');
    assert.equal(backups.length, 1, names.join(','));
    assert.match(backups[0] as string, backupName);
    assert.ok(backups[0]?.endsWith('.log.gz'));
    assert.equal(gunzipSync(await readFile(join(dir, 'a', backups[0] as string))).toString(), line('a', 400 * kib) + line('b', 400 * kib));
    assert.equal(await readFile(filename, 'utf8'), line('c', 400 * kib) + line('d', 10));
  });

  it('appends to an existing file unless the write would fill it, and refuses a line larger than maxSize', async () => {
    const filename = join(dir, 'b', 'audit.log');
    await openLogSink({ filename, maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: false });
    await writeFile(filename, line('x', 10));
    const f = new RotatingFile({ filename, maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: false });
    await f.write(line('y', 10));
    assert.equal(await readFile(filename, 'utf8'), line('x', 10) + line('y', 10));
    await assert.rejects(f.write(line('z', 1024 * kib + 1)), { message: `write length ${1024 * kib + 1} exceeds maximum file size ${1024 * kib}` });
    await f.close();
    await writeFile(filename, line('x', 900 * kib));
    const g = new RotatingFile({ filename, maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: false });
    await g.write(line('y', 200 * kib));
    await g.close();
    assert.equal(await readFile(filename, 'utf8'), line('y', 200 * kib));
    assert.equal((await readdir(join(dir, 'b'))).length, 2);
  });

  it('keeps at most maxBackups backups', async () => {
    const filename = join(dir, 'c', 'audit.log');
    const f = new RotatingFile({ filename, maxSizeMB: 1, maxBackups: 1, maxAgeDays: 0, compress: false });
    for (const c of 'abcd') {
      await f.write(line(c, 700 * kib));
      // Backups are named to the millisecond.
      await new Promise((r) => setTimeout(r, 5));
    }
    await f.close();
    const backups = (await readdir(join(dir, 'c'))).filter((n) => n !== 'audit.log');
    assert.equal(backups.length, 1);
    assert.equal(await readFile(join(dir, 'c', backups[0] as string), 'utf8'), line('c', 700 * kib), 'the newest backup stays');
  });

  it('reports a failed write with Go’s text, and the backend counts and logs it', async () => {
    const f = new RotatingFile({ filename: '/dev/full', maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false });
    await assert.rejects(f.write('x\n'), { message: 'write /dev/full: no space left on device' });
    const errors: Array<[string, number]> = [];
    const logged: string[] = [];
    const backend = new LogBackend(f, 'json', { error: (p, n) => errors.push([p, n]), logError: (m) => logged.push(m) });
    const ev = { kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'x', stage: 'RequestReceived', requestURI: '/', verb: 'get', user: { username: 'u' }, requestReceivedTimestamp: '2025-01-02T03:04:05.000000Z', stageTimestamp: '2025-01-02T03:04:05.000000Z' } as AuditEvent;
    assert.equal(await backend.processEvents([ev]), false);
    assert.deepEqual(errors, [['log', 1]]);
    assert.match(logged[0] as string, /^Error in audit plugin 'log' affecting 1 audit events: write \/dev\/full: no space left on device\nImpacted events:\n.* AUDIT: id="x" stage="RequestReceived"/);
    await backend.shutdown();
  });

  it('writes events in order, one line each', async () => {
    const filename = join(dir, 'd', 'audit.log');
    const backend = new LogBackend(await openLogSink({ filename, maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false }), 'json');
    const ev = (id: string): AuditEvent => ({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: id, stage: 'RequestReceived', requestURI: '/', verb: 'get', user: { username: 'u' }, requestReceivedTimestamp: 't', stageTimestamp: 't' });
    const results = await Promise.all([backend.processEvents([ev('1')]), backend.processEvents([ev('2'), ev('3')]), backend.processEvents([ev('4')])]);
    assert.deepEqual(results, [true, true, true]);
    await backend.shutdown();
    const ids = (await readFile(filename, 'utf8')).trim().split('\n').map((l) => JSON.parse(l).auditID);
    assert.deepEqual(ids, ['1', '2', '3', '4']);
  });

  it('writes a line queued in the moments after an earlier one settled (any microtask depth)', async () => {
    const filename = join(dir, 'e', 'audit.log');
    const f = new RotatingFile({ filename, maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false });
    // A request's next event can come a few microtasks after its last one was written: each depth
    // is one such moment; a line queued while the drain was ending used to wait forever.
    for (let depth = 0; depth < 8; depth++) {
      await f.write(`a${depth}\n`).then(async () => {
        for (let i = 0; i < depth; i++) await null;
        await f.write(`b${depth}\n`);
      });
    }
    await f.close();
    const lines = (await readFile(filename, 'utf8')).trim().split('\n');
    assert.deepEqual(lines, Array.from({ length: 8 }, (_, d) => [`a${d}`, `b${d}`]).flat());
  });

  it('refuses a log path it cannot create (ensureLogFile)', async () => {
    const blocked = join(dir, 'file');
    await writeFile(blocked, '');
    await assert.rejects(openLogSink({ filename: join(blocked, 'audit.log'), maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false }), { message: `ensureLogFile: mkdir ${blocked}: not a directory` });
  });
});
