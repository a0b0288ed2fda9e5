import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels } from './flowcontrol-defaults.js';
import { revise, shouldUpdateSpec } from './flowcontrol-ensurer.js';

const withMeta = (obj: KubeObject, meta: Partial<KubeObject['metadata']>, spec?: unknown): KubeObject => ({
  ...structuredClone(obj),
  metadata: { ...obj.metadata, ...meta },
  ...(spec !== undefined ? { spec } : {}),
});

describe('APF bootstrap ensurer', () => {
  it('has kube 1.33\'s objects, every one auto-updated', () => {
    assert.equal(mandatoryPriorityLevels.length + suggestedPriorityLevels.length, 8);
    assert.equal(mandatoryFlowSchemas.length + suggestedFlowSchemas.length, 13);
    for (const o of [...mandatoryPriorityLevels, ...suggestedPriorityLevels, ...mandatoryFlowSchemas, ...suggestedFlowSchemas]) {
      assert.equal(o.metadata.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true');
    }
  });

  it('shouldUpdateSpec: the annotation as a bool, else generation 1', () => {
    assert.equal(shouldUpdateSpec({ metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' }, generation: 5 } }), true);
    assert.equal(shouldUpdateSpec({ metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'F' }, generation: 1 } }), false);
    assert.equal(shouldUpdateSpec({ metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'maybe' }, generation: 1 } }), true);
    assert.equal(shouldUpdateSpec({ metadata: { generation: 2 } }), false);
  });

  it('mandatory objects are always put back (and annotated); suggested ones only while auto-updated', () => {
    const catchAll = mandatoryFlowSchemas[1] as KubeObject;
    const changed = withMeta(catchAll, { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' }, generation: 3 }, { ...(catchAll.spec as object), matchingPrecedence: 42 });
    const fixed = revise(catchAll, changed, true);
    assert.equal((fixed?.spec as { matchingPrecedence: number }).matchingPrecedence, 10000);
    assert.equal(fixed?.metadata.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true');
    assert.equal(revise(catchAll, structuredClone(catchAll), true), undefined, 'unchanged: nothing to write');

    const sa = suggestedFlowSchemas.find((s) => s.metadata.name === 'service-accounts') as KubeObject;
    const userOwned = withMeta(sa, { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' }, generation: 2 }, { ...(sa.spec as object), matchingPrecedence: 1 });
    assert.equal(revise(sa, userOwned, false), undefined);
    const stale = withMeta(sa, { generation: 4 }, { ...(sa.spec as object), matchingPrecedence: 1 });
    assert.equal((revise(sa, stale, false)?.spec as { matchingPrecedence: number }).matchingPrecedence, 9000);
  });

  it('the exempt level keeps the user\'s shares and lending', () => {
    const exempt = mandatoryPriorityLevels.find((p) => p.metadata.name === 'exempt') as KubeObject;
    const tuned = withMeta(exempt, {}, { type: 'Exempt', exempt: { nominalConcurrencyShares: 7, lendablePercent: 20 } });
    assert.equal(revise(exempt, tuned, true), undefined);
  });
});
