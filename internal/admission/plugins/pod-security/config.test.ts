import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { levelVersionString } from './api.js';
import { loadPodSecurityConfig } from './config.js';

describe('PodSecurityConfiguration', () => {
  it('defaults to privileged:latest everywhere and no exemptions', () => {
    const c = loadPodSecurityConfig(undefined);
    assert.equal(levelVersionString(c.defaults.enforce), 'privileged:latest');
    assert.equal(c.exemptNamespaces.size, 0);
  });

  it('reads v1 and v1beta1 defaults and exemptions', () => {
    for (const v of ['v1', 'v1beta1']) {
      const c = loadPodSecurityConfig({
        apiVersion: `pod-security.admission.config.k8s.io/${v}`,
        kind: 'PodSecurityConfiguration',
        defaults: { enforce: 'baseline', 'enforce-version': 'v1.30', warn: 'restricted' },
        exemptions: { usernames: ['admin'], runtimeClasses: ['kata'], namespaces: ['kube-system'] },
      });
      assert.equal(levelVersionString(c.defaults.enforce), 'baseline:v1.30');
      assert.equal(levelVersionString(c.defaults.warn), 'restricted:latest');
      assert.equal(levelVersionString(c.defaults.audit), 'privileged:latest');
      assert.ok(c.exemptUsernames.has('admin') && c.exemptRuntimeClasses.has('kata') && c.exemptNamespaces.has('kube-system'));
    }
  });

  it('refuses invalid values, duplicates, unknown fields and other kinds with kube messages', () => {
    const base = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration' };
    assert.throws(
      () => loadPodSecurityConfig({ ...base, defaults: { enforce: 'strict', 'audit-version': 'v2' }, exemptions: { namespaces: ['Bad_NS', 'a', 'a'], usernames: [''] } }),
      (e: Error) => {
        assert.equal(
          e.message,
          'PodSecurity invalid: [defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted, ' +
            'defaults.audit-version: Invalid value: "v2": must be "latest" or "v1.x", ' +
            "exemptions.namespaces[0]: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), " +
            'exemptions.namespaces[2]: Duplicate value: "a", exemptions.usernames[0]: Required value]',
        );
        return true;
      },
    );
    assert.throws(() => loadPodSecurityConfig({ ...base, defaults: { enforced: 'baseline' } }), /unknown field "defaults.enforced"/);
    assert.throws(() => loadPodSecurityConfig({ apiVersion: 'v1', kind: 'ConfigMap' }), /expected PodSecurityConfiguration/);
  });
});
