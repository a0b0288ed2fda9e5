/**
 * The service accounts controller (kube-controller-manager's serviceaccount-controller, run inside
 * the API server as Capstan has no controller manager): every active namespace has a ServiceAccount
 * named "default"; one that is missing (a new namespace, or the account was deleted) is created.
 * Terminating namespaces are left alone. The ServiceAccount admission plugin waits briefly for it.
 */
import { hasReason } from '../../apierrors/status-error.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { isActiveNamespace } from '../active-namespace.js';
import { ResourceClient } from '../resource-client.js';
import { WorkQueue } from '../work-queue.js';

/** The account every namespace gets. */
export const defaultServiceAccountName = 'default';

/** The controller, for the in-server list. */
export const serviceAccountsController: InServerController = {
  name: 'serviceaccount-controller',
  controllerManagerAlias: 'serviceaccount',
  start(deps) {
    const namespaces = deps.informers.get('', 'namespaces');
    const accounts = deps.informers.get('', 'serviceaccounts');
    const client = new ResourceClient(deps.storageOf('', 'serviceaccounts') as NonNullable<ReturnType<typeof deps.storageOf>>, '', 'serviceaccounts');
    const queue = new WorkQueue(
      async (ns) => {
        // Until the accounts are known, every existing one would look missing.
        await accounts.synced;
        const namespace = namespaces.get(ns);
        if (!isActiveNamespace(namespace)) return;
        if (accounts.get(`${ns}/${defaultServiceAccountName}`)) return;
        try {
          await client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: defaultServiceAccountName, namespace: ns } });
        } catch (err) {
          // Made meanwhile (by another API server on the same etcd, or a client), or the namespace
          // began terminating: nothing to do.
          if (hasReason(err, 'AlreadyExists') || hasReason(err, 'Forbidden') || hasReason(err, 'NotFound')) return;
          throw err;
        }
      },
      { onDrop: (ns, err) => deps.log.warn(`serviceaccount-controller: creating ${ns}/default failed: ${(err as Error).message}`) },
    );
    namespaces.addHandlers({
      added: (ns) => queue.add(ns.metadata.name ?? ''),
      updated: (ns) => queue.add(ns.metadata.name ?? ''),
    });
    accounts.addHandlers({
      deleted: (sa) => {
        if (sa.metadata.name === defaultServiceAccountName) queue.add(sa.metadata.namespace ?? '');
      },
    });
    return () => queue.stop();
  },
};
