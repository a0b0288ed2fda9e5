import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findCondition } from '../conditions.js';
import { crd, FakeCrds, until } from '../testing.js';
import { startNamingController } from './controller.js';

describe('naming controller', () => {
  it('the first CRD keeps its names; the second gets them once the first is gone', async () => {
    const store = new FakeCrds();
    store.put(crd('example.com', { plural: 'widgets', kind: 'Widget' }));
    const running = startNamingController(store.deps());
    try {
      await until('widgets accepted', () => findCondition(store.get('widgets.example.com')!, 'NamesAccepted')?.status === 'True');
      // Same kind (and so listKind), another plural: the last conflict checked, listKind, is reported.
      store.put(crd('example.com', { plural: 'widgetz', kind: 'Widget' }));
      await until('widgetz refused', () => findCondition(store.get('widgetz.example.com')!, 'NamesAccepted')?.status === 'False');
      const refused = store.get('widgetz.example.com')!;
      assert.deepEqual(
        { ...findCondition(refused, 'NamesAccepted'), lastTransitionTime: undefined },
        { type: 'NamesAccepted', status: 'False', lastTransitionTime: undefined, reason: 'ListKindConflict', message: '"WidgetList" is already in use' },
      );
      // Another group does not conflict.
      store.put(crd('other.io', { plural: 'widgets', kind: 'Widget' }));
      await until('other group accepted', () => findCondition(store.get('widgets.other.io')!, 'NamesAccepted')?.status === 'True');
      const writes = store.writes.length;
      store.remove('widgets.example.com');
      await until('widgetz accepted', () => findCondition(store.get('widgetz.example.com')!, 'NamesAccepted')?.status === 'True');
      assert.equal((store.get('widgetz.example.com')!.status as { acceptedNames: { kind: string } }).acceptedNames.kind, 'Widget');
      // Only the recovering CRD was written.
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(store.writes.slice(writes).map((w) => w.metadata.name), ['widgetz.example.com']);
    } finally {
      running.stop();
    }
  });

  it('two CRDs queued back to back cannot both take a name (its own writes count before the informer has them)', async () => {
    const store = new FakeCrds();
    // Deliver writes late, as a real informer would: status writes land in storage, events come later.
    const late = new FakeCrds();
    const deps = {
      ...store.deps(),
      updateStatus: async (...args: Parameters<typeof store.updateStatus>) => {
        const out = await late.updateStatus(...args);
        const written = out?.object;
        if (written) setTimeout(() => store.put(written), 30);
        return out;
      },
    };
    for (const c of [crd('example.com', { plural: 'as', kind: 'Same' }), crd('example.com', { plural: 'bs', kind: 'Same' })]) {
      store.put(c);
      late.put(c);
    }
    const running = startNamingController(deps);
    try {
      await until('both decided', () => ['as.example.com', 'bs.example.com'].every((n) => findCondition(store.get(n)!, 'NamesAccepted')));
      const statuses = ['as.example.com', 'bs.example.com'].map((n) => findCondition(store.get(n)!, 'NamesAccepted')?.status).sort();
      assert.deepEqual(statuses, ['False', 'True']);
    } finally {
      running.stop();
    }
  });
});
