/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import type { KubeObject } from '../../../../api/meta/types.js';
import { hasReason } from '../../../apierrors/status-error.js';
import type { RestStorage } from '../../../registry/interface.js';
import { internalContext } from '../../../request/context.js';
import { AlwaysAdmit } from '../always/always-admit.js';
import { AlwaysDeny } from '../always/always-deny.js';
import { CertificateApproval } from '../certificates/certificate-approval.js';
import { CertificateSigning } from '../certificates/certificate-signing.js';
import { CertificateSubjectRestriction } from '../certificates/certificate-subject-restriction.js';
import { ClusterTrustBundleAttest } from '../certificates/cluster-trust-bundle-attest.js';
import type { AdmissionPluginDeps, AdmissionPluginFactories } from '../deps.js';
import type { NamespaceLookup } from '../namespace-lifecycle/plugin.js';
import { NamespaceAutoProvision } from '../namespace-autoprovision/plugin.js';
import { NamespaceExists } from '../namespace-exists/plugin.js';

function namespaceStorage(deps: AdmissionPluginDeps): RestStorage {
  const storage = deps.storageOf('', 'namespaces');
  if (!storage) throw new Error('namespaces are not served');
  return storage;
}

/** Namespaces from the shared informer (once synced, as kube's WaitForReady), or read from storage. */
function namespaceLookup(deps: AdmissionPluginDeps): NamespaceLookup {
  const storage = namespaceStorage(deps);
  return async (name, live) => {
    if (!live) {
      const informer = deps.informers.get('', 'namespaces');
      if (!informer.hasSynced()) await informer.synced;
      return informer.get(name);
    }
    try {
      return await (storage.get as NonNullable<RestStorage['get']>).call(storage, internalContext({ verb: 'get', resource: 'namespaces', name }), name, { resourceVersion: '' });
    } catch (err) {
      if (hasReason(err, 'NotFound')) return undefined;
      throw err;
    }
  };
}

export const miscFactories: AdmissionPluginFactories = {
  AlwaysAdmit: () => new AlwaysAdmit(),
  AlwaysDeny: () => new AlwaysDeny(),
  NamespaceExists: (deps) => new NamespaceExists(namespaceLookup(deps)),
  NamespaceAutoProvision: (deps) => {
    const lookup = namespaceLookup(deps);
    const storage = namespaceStorage(deps);
    return new NamespaceAutoProvision({
      exists: async (name) => (await lookup(name, false)) !== undefined,
      create: async (name) => {
        const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
        await (storage.create as NonNullable<RestStorage['create']>).call(storage, internalContext({ verb: 'create', resource: 'namespaces' }), ns, { dryRun: false });
      },
    });
  },
  CertificateApproval: (deps) => new CertificateApproval(deps.authorizer),
  CertificateSigning: (deps) => new CertificateSigning(deps.authorizer),
  CertificateSubjectRestriction: () => new CertificateSubjectRestriction(),
  ClusterTrustBundleAttest: (deps) => new ClusterTrustBundleAttest(deps.authorizer, deps.storageOf('certificates.k8s.io', 'clustertrustbundles') !== undefined),
};
