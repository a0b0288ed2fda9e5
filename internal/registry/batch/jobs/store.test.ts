import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEtcd } from '../../../../test/support/etcd.js';
import { statusOf, deleteOptions } from '../../core/shared/testing.js';
import { contextFor, createVia, getVia, setupModule, updateVia, versionOf } from '../../shared/testing.js';
import { jobsModule } from './store.js';

const fx = useEtcd();

const pi = {
  metadata: { name: 'pi' },
  spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl' }], restartPolicy: 'Never' } } },
};

describe('jobs store (etcd)', () => {
  it('creates a job with kube defaults, a generated selector and labels, under /jobs', async () => {
    const { regs, storage } = setupModule(fx, jobsModule);
    const reg = versionOf(regs, 'v1');
    const job = await createVia(reg, structuredClone(pi));
    const uid = job.metadata.uid as string;
    const spec = job.spec as Record<string, any>;
    assert.equal(spec.completions, 1);
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.backoffLimit, 6);
    assert.equal(spec.completionMode, 'NonIndexed');
    assert.equal(spec.suspend, false);
    assert.equal(spec.manualSelector, false);
    assert.equal(spec.podReplacementPolicy, 'TerminatingOrFailed');
    assert.deepEqual(spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
    assert.deepEqual(spec.template.metadata.labels, labels);
    assert.deepEqual(job.metadata.labels, labels);
    assert.equal(spec.template.spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.template.spec.terminationGracePeriodSeconds, 30);
    assert.deepEqual(job.status, {});
    assert.equal(job.metadata.generation, 1);
    const raw = await storage.get('/jobs/ns/pi', { resourceVersion: '' });
    assert.equal(raw.apiVersion, 'batch/v1');
    assert.equal(raw.kind, 'Job');
  });

  it('keeps the generated labels consistent for generateName', async () => {
    const { regs } = setupModule(fx, jobsModule);
    const reg = versionOf(regs, 'v1');
    const job = await createVia(reg, { ...structuredClone(pi), metadata: { generateName: 'pi-' } });
    const name = job.metadata.name as string;
    assert.match(name, /^pi-[a-z0-9]{5}$/);
    const labels = (job.spec as any).template.metadata.labels;
    assert.equal(labels['job-name'], name);
    assert.equal(labels['batch.kubernetes.io/controller-uid'], job.metadata.uid);
  });

  it('refuses restartPolicy Always, negative counts and a manual selector that does not match', async () => {
    const { regs } = setupModule(fx, jobsModule);
    const reg = versionOf(regs, 'v1');
    const always = await statusOf(createVia(reg, { ...structuredClone(pi), spec: { template: { spec: { containers: [{ name: 'a', image: 'b' }] } } } }));
    assert.equal(always.code, 422);
    assert.equal(always.message, 'Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
    const negative = await statusOf(createVia(reg, { ...structuredClone(pi), spec: { ...structuredClone(pi.spec), backoffLimit: -1, parallelism: -2 } }));
    assert.deepEqual(
      negative.details?.causes?.map((c) => `${c.field}: ${c.message}`),
      ['spec.parallelism: Invalid value: -2: must be greater than or equal to 0', 'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0'],
    );
    const manual = await statusOf(
      createVia(reg, {
        metadata: { name: 'm' },
        spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'c' } }, spec: structuredClone(pi.spec.template.spec) } },
      }),
    );
    assert.equal(manual.message, 'Job.batch "m" is invalid: spec.template.metadata.labels: Invalid value: {"a":"c"}: `selector` does not match template `labels`');
  });

  it('keeps selector and template immutable, status only through jobs/status', async () => {
    const { regs } = setupModule(fx, jobsModule);
    const reg = versionOf(regs, 'v1');
    await createVia(reg, structuredClone(pi));
    const moved = await statusOf(updateVia(reg, 'pi', (j) => ((j.spec as any).template.spec.containers[0].image = 'other')));
    assert.equal(moved.code, 422);
    assert.deepEqual(moved.details?.causes?.map((c) => c.field), ['spec.template']);
    const sel = await statusOf(updateVia(reg, 'pi', (j) => ((j.spec as any).selector.matchLabels.x = 'y')));
    assert.ok(sel.details?.causes?.some((c) => c.field === 'spec.selector' && c.message?.endsWith('field is immutable')));
    const st = await updateVia(reg, 'pi', (j) => ((j.status = { active: 1 }), ((j.spec as any).parallelism = 5)), { subresource: 'status' });
    assert.deepEqual(st.status, { active: 1 });
    assert.equal((st.spec as any).parallelism, 1);
    const main = await updateVia(reg, 'pi', (j) => ((j.status = {}), ((j.spec as any).parallelism = 3)));
    assert.deepEqual(main.status, { active: 1 });
    assert.equal(main.metadata.generation, 2);
  });

  it('orphans pods by default (with kube\'s warning) and selects by status.successful', async () => {
    const { regs } = setupModule(fx, jobsModule);
    const reg = versionOf(regs, 'v1');
    await createVia(reg, structuredClone(pi));
    const ctx = contextFor(reg, 'DELETE');
    const res = await reg.main.delete?.(ctx, 'pi', deleteOptions());
    assert.deepEqual(res?.object.metadata.finalizers, ['orphan']);
    assert.deepEqual(ctx.warnings, [
      'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
    ]);
    await createVia(reg, { ...structuredClone(pi), metadata: { name: 'quiet' } });
    const quiet = contextFor(reg, 'DELETE');
    await reg.main.delete?.(quiet, 'quiet', deleteOptions({ propagationPolicy: 'Background' }));
    assert.deepEqual(quiet.warnings, []);
    assert.deepEqual(reg.selectableFields.values?.({ metadata: {}, status: { succeeded: 2 } }), { 'status.successful': '2' });
    assert.ok(await getVia(reg, 'pi'));
  });
});
