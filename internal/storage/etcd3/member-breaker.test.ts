import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GRPCUnavailableError, GRPCInvalidArgumentError } from 'etcd3';
import { MemberBreaker, MemberPassedOverError, memberPassOverMs } from './member-breaker.js';

describe('MemberBreaker', () => {
  it('passes a member over for a second after three recoverable failures in a row, then tries it again', async () => {
    let now = 1000;
    const b = new MemberBreaker('m0:2379', () => now);
    const fail = (): Promise<never> => Promise.reject(new GRPCUnavailableError('etcdserver: no leader'));
    for (let i = 0; i < 3; i++) await assert.rejects(b.execute(fail), GRPCUnavailableError);
    let called = false;
    await assert.rejects(
      b.execute(() => {
        called = true;
        return 1;
      }),
      MemberPassedOverError,
    );
    assert.equal(called, false, 'a passed-over member is not called');
    now += memberPassOverMs;
    assert.equal(await b.execute(() => 7), 7);
  });

  it('counts neither errors that are not recoverable nor failures a success interrupted', async () => {
    const b = new MemberBreaker('m0:2379', () => 0);
    for (let i = 0; i < 5; i++) await assert.rejects(b.execute(() => Promise.reject(new GRPCInvalidArgumentError('bad'))));
    await assert.rejects(b.execute(() => Promise.reject(new GRPCUnavailableError('x'))));
    await assert.rejects(b.execute(() => Promise.reject(new GRPCUnavailableError('x'))));
    await b.execute(() => 1);
    await assert.rejects(b.execute(() => Promise.reject(new GRPCUnavailableError('x'))));
    assert.equal(await b.execute(() => 2), 2);
  });
});
