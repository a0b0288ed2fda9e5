/**
 * A patch whose result does not decode into the kind, or that strict field validation refuses, is
 * kube's 422 on the field `patch` (patch.go), not the 400 of a body that does not decode: the bad
 * value is the patched object's JSON (JSON and merge patches) or the patch as Go prints it (strategic
 * merge patches, whose result goes through the unstructured converter with its own messages).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer();
const deploys = '/apis/apps/v1/namespaces/default/deployments';
const json = 'application/json-patch+json';
const merge = 'application/merge-patch+json';
const smp = 'application/strategic-merge-patch+json';

function deployment(name: string): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  };
}

async function patch(name: string, type: string, body: string, query = ''): Promise<{ status: number; json: any; text: string }> {
  const res = await fx.request('PATCH', `${deploys}/${name}${query}`, { rawBody: body, headers: { 'content-type': type } });
  return { status: res.status, json: res.status >= 400 || res.status < 300 ? res.json() : undefined, text: res.text };
}

/** Asserts kube's 422 on `patch` and returns [bad value as quoted in the message, detail]. */
function patchInvalid(res: { status: number; json: any; text: string }): { message: string; detail: string } {
  assert.equal(res.status, 422, res.text);
  const st = res.json;
  assert.equal(st.kind, 'Status');
  assert.equal(st.reason, 'Invalid');
  assert.equal(st.code, 422);
  assert.ok(st.message.startsWith(' "" is invalid: patch: Invalid value: "'), st.message);
  assert.deepEqual(Object.keys(st.details), ['causes'], 'no kind, no name, no group');
  assert.equal(st.details.causes.length, 1);
  assert.equal(st.details.causes[0].reason, 'FieldValueInvalid');
  assert.equal(st.details.causes[0].field, 'patch');
  assert.equal(` "" is invalid: patch: ${st.details.causes[0].message}`, st.message);
  const detail = st.message.slice(st.message.lastIndexOf('": ') + 3);
  return { message: st.message, detail };
}

describe('a patch whose result does not decode', () => {
  before(async () => {
    for (const name of ['pe-json', 'pe-merge', 'pe-smp', 'pe-strict']) {
      const res = await fx.request('POST', deploys, { body: deployment(name) });
      assert.equal(res.status, 201, res.text);
    }
  });

  it('JSON patch: a string into an integer is 422 with the patched object and the decoder message', async () => {
    const res = await patch('pe-json', json, '[{"op":"replace","path":"/spec/replicas","value":"three"}]');
    const { message, detail } = patchInvalid(res);
    assert.equal(detail, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.ok(message.includes('\\"replicas\\":\\"three\\"'), 'the bad value is the patched object');
    assert.ok(message.includes('\\"name\\":\\"pe-json\\"'));
  });

  it('JSON patch and merge patch: a number written 1e3 or 1.0 into an integer is refused as the decoder refuses it', async () => {
    const j = patchInvalid(await patch('pe-json', json, '[{"op":"replace","path":"/spec/replicas","value":1e3}]'));
    assert.equal(j.detail, 'json: cannot unmarshal number 1e3 into Go struct field DeploymentSpec.spec.replicas of type int32');
    const nested = patchInvalid(await patch('pe-json', json, '[{"op":"add","path":"/spec/template/spec","value":{"containers":[{"name":"c","image":"i"}],"terminationGracePeriodSeconds":3.0}}]'));
    assert.equal(nested.detail, 'json: cannot unmarshal number 3.0 into Go struct field PodSpec.spec.template.spec.terminationGracePeriodSeconds of type int64');
    const m = patchInvalid(await patch('pe-merge', merge, '{"spec":{"replicas":1.0}}'));
    assert.equal(m.detail, 'json: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32');
    // A later operation that sets the field again with a plain integer wins.
    const ok = await patch('pe-json', json, '[{"op":"replace","path":"/spec/replicas","value":1e3},{"op":"replace","path":"/spec/replicas","value":2}]');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.spec.replicas, 2);
  });

  it('merge patch: a map where a string goes', async () => {
    const { detail } = patchInvalid(await patch('pe-merge', merge, '{"spec":{"template":{"spec":{"restartPolicy":{"a":1}}}}}'));
    assert.equal(detail, 'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.restartPolicy of type v1.RestartPolicy');
  });

  it('strategic merge patch: the converter messages, with the patch printed as Go prints a map', async () => {
    const frac = patchInvalid(await patch('pe-smp', smp, '{"spec":{"replicas":1.5}}'));
    assert.equal(frac.message, ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:1.5]]": cannot convert float64 to int32');
    const str = patchInvalid(await patch('pe-smp', smp, '{"spec":{"replicas":"three","paused":true}}'));
    assert.equal(str.message, ' "" is invalid: patch: Invalid value: "map[spec:map[paused:true replicas:three]]": unrecognized type: int32');
    const intToString = patchInvalid(await patch('pe-smp', smp, '{"spec":{"template":{"spec":{"restartPolicy":5}}}}'));
    assert.equal(intToString.detail, 'cannot convert int64 to v1.RestartPolicy');
    const struct = patchInvalid(await patch('pe-smp', smp, '{"spec":{"strategy":"fast"}}'));
    assert.equal(struct.detail, 'cannot restore struct from: string');
    const quantity = patchInvalid(await patch('pe-smp', smp, '{"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"lots"}}}]}}}}'));
    assert.equal(quantity.detail, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });

  it('strategic merge patch: a whole number written 1e3 goes into an integer field, as the converter takes a whole float64', async () => {
    const res = await patch('pe-smp', smp, '{"spec":{"replicas":1e1}}');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.spec.replicas, 10);
  });

  it('fieldValidation=Strict: 422 on patch for every patch type, the findings as kube lists them', async () => {
    const m = patchInvalid(await patch('pe-strict', merge, '{"spec":{"paused":true,"paused":false,"zzz":1}}', '?fieldValidation=Strict'));
    assert.equal(m.detail, 'strict decoding error: duplicate field "spec.paused", unknown field "spec.zzz"');
    const j = patchInvalid(await patch('pe-strict', json, '[{"op":"add","path":"/spec/zzz","value":1,"foo":"bar"}]', '?fieldValidation=Strict'));
    assert.equal(j.detail, 'strict decoding error: json patch unknown field "[0].foo", unknown field "spec.zzz"');
    const s = patchInvalid(await patch('pe-strict', smp, '{"spec":{"zzz":1,"paused":true,"paused":false,"template":{"spec":{"containers":[{"name":"c","bogus":1}]}}}}', '?fieldValidation=Strict'));
    assert.equal(s.message, ' "" is invalid: patch: Invalid value: "map[spec:map[paused:false template:map[spec:map[containers:[map[bogus:1 name:c]]]] zzz:1]]": strict decoding error: duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].bogus", unknown field "spec.zzz"');
    // Nothing was stored by the refused patches.
    const got = await fx.request('GET', `${deploys}/pe-strict`);
    assert.equal(got.json().spec.paused, undefined);
  });

  // kube's own cases (test/integration/apiserver/field_validation_test.go): the findings, in its order.
  const mergeBody = `{"spec":{"unknown1":"val1","unknownDupe":"valDupe","unknownDupe":"valDupe2","paused":true,"paused":false,
    "template":{"spec":{"containers":[{"name":"nginx","image":"nginx:latest","unknownNested":"val1","imagePullPolicy":"Always","imagePullPolicy":"Never"}]}}}}`;
  const findings = 'strict decoding error: duplicate field "spec.unknownDupe", duplicate field "spec.paused", duplicate field "spec.template.spec.containers[0].imagePullPolicy", unknown field "spec.template.spec.containers[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe"';

  it('kube\'s merge-patch and strategic-merge-patch cases give its findings in its order', async () => {
    for (const name of ['pe-kube-merge', 'pe-kube-smp']) {
      const res = await fx.request('POST', deploys, { body: deployment(name) });
      assert.equal(res.status, 201, res.text);
    }
    assert.equal(patchInvalid(await patch('pe-kube-merge', merge, mergeBody, '?fieldValidation=Strict')).detail, findings);
    const smpBody = mergeBody.replace('"template":{', '"selector":{"matchLabels":{"app":"pe-kube-smp"}},"template":{"metadata":{"labels":{"app":"pe-kube-smp"}},');
    assert.equal(patchInvalid(await patch('pe-kube-smp', smp, smpBody.replace('"name":"nginx","image":"nginx:latest"', '"name":"c"'), '?fieldValidation=Strict')).detail, findings);
    const warn = await fx.request('PATCH', `${deploys}/pe-kube-merge?fieldValidation=Warn`, { rawBody: mergeBody, headers: { 'content-type': merge } });
    assert.equal(warn.status, 200, warn.text);
    assert.equal(
      warn.headers.warning,
      findings
        .slice('strict decoding error: '.length)
        .split(', ')
        .map((w) => `299 - "${w.replace(/"/g, '\\"')}"`)
        .join(', '),
    );
  });
});
