/**
 * The apiextensions controllers against a real etcd: a new CRD gets NamesAccepted and Established
 * within a second; CRDs of one group that ask for names another holds get NamesAccepted False with
 * kube's reason and message and recover once the holder is gone; deleting a CRD marks it first
 * (kube's registry: deletionTimestamp, the customresourcecleanup finalizer, Terminating
 * InstanceDeletionPending) and the CRD finalizer then lets it go; a second API server on the same
 * etcd agrees with the first instead of fighting over the status.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort } from '../../hack/local-etcd.js';
import { createLogger } from '../../internal/observability/logging.js';
import { startServer } from '../../internal/server/server.js';
import { httpsCall, testServerOptions, useServer, type TestResponse } from '../support/server.js';

const fx = useServer();
const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

interface Names {
  plural: string;
  kind: string;
  singular?: string;
  shortNames?: string[];
  listKind?: string;
}

function crdBody(group: string, names: Names): unknown {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      names,
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

async function create(group: string, names: Names): Promise<any> {
  const res = await fx.request('POST', crds, { body: crdBody(group, names) });
  assert.equal(res.status, 201, res.text);
  return res.json();
}

const condition = (crd: any, type: string): any => (crd?.status?.conditions ?? []).find((c: any) => c.type === type);

/** Polls the CRD until check holds; returns it. */
async function waitFor(name: string, what: string, check: (crd: any) => boolean, timeoutMs = 5000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: TestResponse | undefined;
  while (Date.now() < deadline) {
    last = await fx.request('GET', `${crds}/${name}`);
    if (last.status === 200 && check(last.json())) return last.json();
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`timed out waiting for ${name}: ${what}; last: ${last?.text}`);
}

async function waitGone(name: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fx.request('GET', `${crds}/${name}`);
    if (res.status === 404) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`${name} still exists: ${(await fx.request('GET', `${crds}/${name}`)).text}`);
}

const summary = (c: any): unknown => c && { status: c.status, reason: c.reason, message: c.message };

describe('CRD controllers', () => {
  it('a new CRD has its names accepted and is Established within a second', async () => {
    const start = Date.now();
    await create('ctl.example.com', { plural: 'widgets', kind: 'Widget', shortNames: ['wd'], categories: ['all'] } as Names);
    const crd = await waitFor('widgets.ctl.example.com', 'Established', (c) => condition(c, 'Established')?.status === 'True', 1000);
    assert.ok(Date.now() - start < 1000, `${Date.now() - start} ms`);
    assert.deepEqual(crd.status.acceptedNames, { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList', categories: ['all'] });
    assert.deepEqual(summary(condition(crd, 'NamesAccepted')), { status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    assert.deepEqual(summary(condition(crd, 'Established')), { status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    assert.match(condition(crd, 'Established').lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(crd.metadata.finalizers, undefined, 'kube adds the cleanup finalizer on delete, not on create');
  });

  it('names another CRD of the group holds are refused with kube\'s reasons until the holder is gone', async () => {
    const group = 'conflict.example.com';
    // The holder keeps every name it asked for but its listKind, which an older CRD has: it holds
    // names without being established (so deleting it needs no instance deletion).
    await create(group, { plural: 'others', kind: 'Other', listKind: 'WidgetList' });
    await waitFor(`others.${group}`, 'Established', (c) => condition(c, 'Established')?.status === 'True');
    await create(group, { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] });
    const holder = await waitFor(`widgets.${group}`, 'NamesAccepted False', (c) => condition(c, 'NamesAccepted')?.status === 'False');
    assert.deepEqual(summary(condition(holder, 'NamesAccepted')), { status: 'False', reason: 'ListKindConflict', message: '"WidgetList" is already in use' });
    assert.deepEqual(holder.status.acceptedNames, { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget' });
    // A plural that is the holder's singular, a shortName it holds, its kind (listKind apart).
    await create(group, { plural: 'widget', kind: 'Thing', listKind: 'ThingList', singular: 'thing' });
    await create(group, { plural: 'gadgets', kind: 'Gadget', shortNames: ['wd', 'gd'] });
    await create(group, { plural: 'gizmos', kind: 'Widget', listKind: 'GizmoList', singular: 'gizmo' });
    const refused = async (name: string, reason: string, message: string): Promise<any> => {
      const crd = await waitFor(name, 'NamesAccepted False', (c) => condition(c, 'NamesAccepted')?.status === 'False');
      assert.deepEqual(summary(condition(crd, 'NamesAccepted')), { status: 'False', reason, message });
      assert.deepEqual(summary(condition(crd, 'Established')), { status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
      return crd;
    };
    const plural = await refused(`widget.${group}`, 'PluralConflict', '"widget" is already in use');
    assert.deepEqual(plural.status.acceptedNames, { plural: '', singular: 'thing', kind: 'Thing', listKind: 'ThingList' });
    const shorts = await refused(`gadgets.${group}`, 'ShortNamesConflict', '"wd" is already in use');
    assert.deepEqual(shorts.status.acceptedNames, { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' });
    await refused(`gizmos.${group}`, 'KindConflict', '"Widget" is already in use');

    const del = await fx.request('DELETE', `${crds}/widgets.${group}`);
    assert.equal(del.status, 200, del.text);
    await waitGone(`widgets.${group}`);
    for (const name of [`widget.${group}`, `gadgets.${group}`, `gizmos.${group}`]) {
      const crd = await waitFor(name, 'recovered and Established', (c) => condition(c, 'Established')?.status === 'True');
      assert.deepEqual(summary(condition(crd, 'NamesAccepted')), { status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    }
    const gadgets = (await fx.request('GET', `${crds}/gadgets.${group}`)).json();
    assert.deepEqual(gadgets.status.acceptedNames.shortNames, ['wd', 'gd']);
  });

  it('deleting a CRD marks it as kube\'s registry does, and the finalizer lets it go', async () => {
    const group = 'delete.example.com';
    await create(group, { plural: 'holders', kind: 'Holder' });
    await waitFor(`holders.${group}`, 'Established', (c) => condition(c, 'Established')?.status === 'True');
    // Refused names: never established, so there are no instances to delete.
    const created = await create(group, { plural: 'nevers', kind: 'Holder', listKind: 'NeverList' });
    await waitFor(`nevers.${group}`, 'NamesAccepted False', (c) => condition(c, 'NamesAccepted')?.status === 'False');

    const wrongUid = await fx.request('DELETE', `${crds}/nevers.${group}`, { body: { preconditions: { uid: 'not-the-uid' } } });
    assert.equal(wrongUid.status, 409, wrongUid.text);
    assert.equal(wrongUid.json().message, `Operation cannot be fulfilled on customresourcedefinitions.apiextensions.k8s.io "nevers.${group}": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${created.metadata.uid}`);

    const dry = await fx.request('DELETE', `${crds}/nevers.${group}?dryRun=All`);
    assert.equal(dry.status, 200, dry.text);
    assert.ok(dry.json().metadata.deletionTimestamp);
    assert.equal((await fx.request('GET', `${crds}/nevers.${group}`)).json().metadata.deletionTimestamp, undefined, 'dry run wrote nothing');

    const del = await fx.request('DELETE', `${crds}/nevers.${group}`);
    assert.equal(del.status, 200, del.text);
    const marked = del.json();
    assert.equal(marked.kind, 'CustomResourceDefinition');
    assert.ok(marked.metadata.deletionTimestamp);
    assert.equal(marked.metadata.deletionGracePeriodSeconds, undefined);
    assert.deepEqual(marked.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    assert.deepEqual(summary(condition(marked, 'Terminating')), {
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    await waitGone(`nevers.${group}`);
  });

  // Works with and without the served custom resources (built in parallel): where the resource is
  // served, its instances are deleted and the CRD goes; where it is not, the finalizer reports that
  // it cannot reach them (kube's InstanceDeletionFailed) and keeps the CRD.
  it('deleting an established CRD deletes its instances of every namespace (InstanceDeletionInProgress), then the CRD', async () => {
    const group = 'instances.example.com';
    await create(group, { plural: 'items', kind: 'Item' });
    await waitFor(`items.${group}`, 'Established', (c) => condition(c, 'Established')?.status === 'True');
    const path = (ns: string): string => `/apis/${group}/v1/namespaces/${ns}/items`;
    let served = false;
    for (const deadline = Date.now() + 2000; !served && Date.now() < deadline; ) {
      served = (await fx.request('GET', path('default'))).status === 200;
      if (!served) await new Promise((r) => setTimeout(r, 50));
    }
    if (!served) {
      assert.equal((await fx.request('DELETE', `${crds}/items.${group}`)).status, 200);
      const stuck = await waitFor(`items.${group}`, 'InstanceDeletionFailed', (c) => condition(c, 'Terminating')?.reason === 'InstanceDeletionFailed');
      assert.match(condition(stuck, 'Terminating').message, /^could not list instances: unable to find a custom resource client for items\.instances\.example\.com: /);
      // Only the cleanup finalizer's removal lets the CRD go; the status subresource may remove it
      // (read again on a conflict: the finalizer keeps recording its retries).
      for (let current = stuck; ; ) {
        current.metadata.finalizers = [];
        const put = await fx.request('PUT', `${crds}/items.${group}/status`, { body: current });
        if (put.status === 200) break;
        assert.equal(put.status, 409, put.text);
        current = (await fx.request('GET', `${crds}/items.${group}`)).json();
      }
      await waitGone(`items.${group}`);
      return;
    }
    const item = (ns: string, name: string, finalizers?: string[]) => ({ apiVersion: `${group}/v1`, kind: 'Item', metadata: { name, namespace: ns, ...(finalizers ? { finalizers } : {}) } });
    for (const [ns, name, hold] of [['default', 'a', false], ['default', 'b', false], ['kube-public', 'c', false], ['kube-public', 'held', true]] as const) {
      const res = await fx.request('POST', path(ns), { body: item(ns, name, hold ? ['example.com/hold'] : undefined) });
      assert.equal(res.status, 201, res.text);
    }
    assert.equal((await fx.request('DELETE', `${crds}/items.${group}`)).status, 200);
    // The held instance keeps the CRD in InstanceDeletionInProgress; the others are gone.
    await waitFor(`items.${group}`, 'InstanceDeletionInProgress', (c) => condition(c, 'Terminating')?.reason === 'InstanceDeletionInProgress');
    for (const [ns, name] of [['default', 'a'], ['default', 'b'], ['kube-public', 'c']]) {
      const deadline = Date.now() + 5000;
      while ((await fx.request('GET', `${path(ns)}/${name}`)).status !== 404) {
        assert.ok(Date.now() < deadline, `${ns}/${name} still exists`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    // The deletion goes through the instances one by one: the held one may be marked just after c is gone.
    const heldDeadline = Date.now() + 5000;
    let held = (await fx.request('GET', `${path('kube-public')}/held`)).json();
    while (!held.metadata.deletionTimestamp && Date.now() < heldDeadline) {
      await new Promise((r) => setTimeout(r, 50));
      held = (await fx.request('GET', `${path('kube-public')}/held`)).json();
    }
    assert.ok(held.metadata.deletionTimestamp, 'the held instance is being deleted');
    const crd = (await fx.request('GET', `${crds}/items.${group}`)).json();
    assert.deepEqual(summary(condition(crd, 'Terminating')), { status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
    assert.deepEqual(crd.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    const release = await fx.request('PATCH', `${path('kube-public')}/held`, {
      rawBody: JSON.stringify({ metadata: { finalizers: null } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(release.status, 200, release.text);
    // kube's finalizer looks again every 5 s.
    await waitGone(`items.${group}`, 8000);
  });

  it('the status subresource changes finalizers but not labels', async () => {
    const group = 'status.example.com';
    const crd = await create(group, { plural: 'labelled', kind: 'Labelled' });
    const current = await waitFor(`labelled.${group}`, 'Established', (c) => condition(c, 'Established')?.status === 'True');
    const res = await fx.request('PUT', `${crds}/labelled.${group}/status`, {
      body: { ...current, metadata: { ...current.metadata, labels: { a: 'b' }, finalizers: ['example.com/keep'] } },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.json().metadata.labels, res.json().metadata.finalizers], [undefined, ['example.com/keep']]);
    assert.equal(crd.metadata.uid, res.json().metadata.uid);
  });

  it('a second API server on the same etcd agrees instead of fighting over the status', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-crd-'));
    const port = await freePort();
    const second = await startServer(testServerOptions(fx.etcd.endpoint, port, join(dir, 'certs')), createLogger(0, true));
    try {
      await second.ready;
      const group = 'two.example.com';
      // Created at once, one through each server: exactly one of them holds the kind.
      const [a, b] = await Promise.all([
        fx.request('POST', crds, { body: crdBody(group, { plural: 'firsts', kind: 'Shared' }) }),
        httpsCall(port, second.certificate.ca ?? '', 'POST', crds, { body: crdBody(group, { plural: 'seconds', kind: 'Shared' }) }),
      ]);
      assert.deepEqual([a.status, b.status], [201, 201]);
      const settled = async (): Promise<string[]> => {
        const out: string[] = [];
        for (const name of [`firsts.${group}`, `seconds.${group}`]) {
          const c = await waitFor(name, 'decided', (x) => condition(x, 'NamesAccepted') !== undefined);
          out.push(`${condition(c, 'NamesAccepted').status}@${c.metadata.resourceVersion}`);
        }
        return out;
      };
      // Each server may first accept the names it alone saw; they settle once each sees the other's
      // CRD (a loaded machine delays that): poll until two reads 700 ms apart agree.
      let once = await settled();
      const deadline = Date.now() + 15_000;
      for (;;) {
        await new Promise((r) => setTimeout(r, 700));
        const again = await settled();
        if (JSON.stringify(again) === JSON.stringify(once) || Date.now() > deadline) break;
        once = again;
      }
      await new Promise((r) => setTimeout(r, 700));
      assert.deepEqual(await settled(), once, 'no further status writes once settled');
      assert.deepEqual(once.map((s) => s.split('@')[0]).sort(), ['False', 'True']);
    } finally {
      await second.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
