import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attrsFor, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { DefaultTolerationSeconds } from './plugin.js';

describe('DefaultTolerationSeconds', () => {
  it('adds the not-ready and unreachable NoExecute tolerations with the configured seconds', async () => {
    const obj = pod('p', { containers: [] });
    await new DefaultTolerationSeconds(60, 300).admit(attrsFor('CREATE', obj), testContext);
    assert.deepEqual((obj as Pod).spec?.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('adds nothing a toleration already covers (an empty key or effect covers all)', async () => {
    const own = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 };
    const obj = pod('p', { tolerations: [own], containers: [] });
    await new DefaultTolerationSeconds(300, 300).admit(attrsFor('UPDATE', obj), testContext);
    assert.equal((obj as Pod).spec?.tolerations?.length, 2);
    const all = pod('p', { tolerations: [{ operator: 'Exists' }], containers: [] });
    await new DefaultTolerationSeconds(300, 300).admit(attrsFor('CREATE', all), testContext);
    assert.deepEqual((all as Pod).spec?.tolerations, [{ operator: 'Exists' }]);
  });
});
