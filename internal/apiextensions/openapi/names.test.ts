import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { articleFor, definitionName, operationDescription, operationId, operationTag, toValidOperationId } from './names.js';

describe('OpenAPI names of custom resources', () => {
  it('reverses the group in definition names', () => {
    assert.equal(definitionName('stable.example.com', 'v1', 'CronTab'), 'com.example.stable.v1.CronTab');
    assert.equal(definitionName('cert-manager.io', 'v1', 'CertificateList'), 'io.cert-manager.v1.CertificateList');
  });

  it('builds operation ids as the apiserver namer does', () => {
    assert.equal(operationId('listNamespacedCronTab', 'stable.example.com', 'v1'), 'listStableExampleComV1NamespacedCronTab');
    assert.equal(operationId('listCronTabForAllNamespaces', 'stable.example.com', 'v1'), 'listStableExampleComV1CronTabForAllNamespaces');
    // The shortest verb wins: deletecollection becomes delete...Collection, as for built-ins.
    assert.equal(operationId('deletecollectionNamespacedCronTab', 'stable.example.com', 'v1beta1'), 'deleteStableExampleComV1beta1CollectionNamespacedCronTab');
    assert.equal(operationId('readNamespacedCronTabStatus', 'stable.example.com', 'v1'), 'readStableExampleComV1NamespacedCronTabStatus');
    assert.equal(operationId('patchClusterWidget', 'cert-manager.io', 'v1'), 'patchCertManagerIoV1ClusterWidget');
    assert.equal(operationId('listNamespacedConfigMap', '', 'v1'), 'listCoreV1NamespacedConfigMap');
    assert.equal(operationId('replaceNamespacedDeployment', 'apps', 'v1'), 'replaceAppsV1NamespacedDeployment');
  });

  it('tags by group and version', () => {
    assert.equal(operationTag('stable.example.com', 'v1'), 'stableExampleCom_v1');
    assert.equal(operationTag('networking.k8s.io', 'v1'), 'networking_v1');
    assert.equal(toValidOperationId('3scale.net', true), 'ScaleNet');
  });

  it('describes operations with the builder wording', () => {
    assert.equal(operationDescription('list', 'CronTab', ''), 'list objects of kind CronTab');
    assert.equal(operationDescription('create', 'CronTab', ''), 'create a CronTab');
    assert.equal(operationDescription('delete', 'Issuer', ''), 'delete an Issuer');
    assert.equal(operationDescription('read', 'CronTab', 'status'), 'read status of the specified CronTab');
    assert.equal(operationDescription('patch', 'CronTab', 'scale'), 'partially update scale of the specified CronTab');
    assert.equal(operationDescription('deletecollection', 'CronTab', ''), 'delete collection of CronTab');
    assert.equal(articleFor('Settings'), ' ');
    assert.equal(articleFor('Class'), ' a ');
  });
});
