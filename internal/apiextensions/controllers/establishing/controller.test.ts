import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findCondition, setCondition } from '../conditions.js';
import { crd, FakeCrds, until } from '../testing.js';
import { startEstablishingController } from './controller.js';

describe('establishing controller', () => {
  it('establishes a CRD once its names are accepted, at once with one API server', async () => {
    const store = new FakeCrds();
    const running = startEstablishingController(store.deps(), { apiserverCount: 1 });
    try {
      const c = crd('example.com', { plural: 'widgets', kind: 'Widget' });
      store.put(c);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(store.writes.length, 0, 'names not accepted yet');
      setCondition(c, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
      store.put(c);
      await until('Established', () => findCondition(store.get('widgets.example.com')!, 'Established')?.status === 'True');
      const cond = findCondition(store.get('widgets.example.com')!, 'Established');
      assert.deepEqual([cond?.reason, cond?.message], ['InitialNamesAccepted', 'the initial names have been accepted']);
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(store.writes.length, 1, 'written once');
    } finally {
      running.stop();
    }
  });

  it('waits 5 s with several API servers (--apiserver-count above 1)', async () => {
    const store = new FakeCrds();
    const running = startEstablishingController(store.deps(), { apiserverCount: 3 });
    try {
      const c = crd('example.com', { plural: 'widgets', kind: 'Widget' });
      setCondition(c, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
      store.put(c);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(store.writes.length, 0, 'not before 5 s');
    } finally {
      running.stop();
    }
  });
});
