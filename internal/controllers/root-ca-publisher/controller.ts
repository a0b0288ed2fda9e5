/**
 * The root CA publisher (kube-controller-manager's root-ca-cert-publisher, run inside the API
 * server): every active namespace has a ConfigMap "kube-root-ca.crt" whose ca.crt is the CA that
 * verifies the API server, which the kube-api-access projected volume of every pod mounts. A missing
 * or changed one is (re)written; terminating namespaces are left alone.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { isActiveNamespace } from '../active-namespace.js';
import { ResourceClient } from '../resource-client.js';
import { Informer } from '../informer.js';
import { fieldSelectorOneTermEqual } from '../../selectors/fields.js';
import { WorkQueue } from '../work-queue.js';

/** The ConfigMap's name. */
export const rootCAConfigMapName = 'kube-root-ca.crt';

const description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

function upToDate(cm: KubeObject, ca: string): boolean {
  const data = (cm.data ?? {}) as Record<string, string>;
  return Object.keys(data).length === 1 && data['ca.crt'] === ca && (cm.metadata.annotations ?? {})['kubernetes.io/description'] === description;
}

/** The controller, for the in-server list (idle when the server knows no CA). */
export const rootCAPublisher: InServerController = {
  name: 'root-ca-certificate-publisher-controller',
  controllerManagerAlias: 'root-ca-cert-publisher',
  start(deps) {
    const ca = deps.rootCA;
    if (!ca) return () => undefined;
    const namespaces = deps.informers.get('', 'namespaces');
    const storage = deps.storageOf('', 'configmaps') as NonNullable<ReturnType<typeof deps.storageOf>>;
    // Only the kube-root-ca.crt ConfigMaps: an informer of every ConfigMap would keep a decoded
    // copy of each in the API server's memory (kube's publisher runs in kube-controller-manager).
    const configMaps = new Informer({ storage, resource: 'configmaps', log: deps.log, fieldSelector: fieldSelectorOneTermEqual('metadata.name', rootCAConfigMapName) });
    configMaps.start();
    const client = new ResourceClient(storage, '', 'configmaps');
    const queue = new WorkQueue(
      async (ns) => {
        await configMaps.synced;
        const namespace = namespaces.get(ns);
        if (!isActiveNamespace(namespace)) return;
        const have = configMaps.get(`${ns}/${rootCAConfigMapName}`);
        if (have && upToDate(have, ca)) return;
        try {
          if (!have) {
            await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: rootCAConfigMapName, namespace: ns, annotations: { 'kubernetes.io/description': description } }, data: { 'ca.crt': ca } });
            return;
          }
          await client.update(rootCAConfigMapName, ns, (cm) => {
            cm.data = { 'ca.crt': ca };
            cm.metadata.annotations = { ...(cm.metadata.annotations ?? {}), 'kubernetes.io/description': description };
            return cm;
          });
        } catch (err) {
          if (hasReason(err, 'AlreadyExists') || hasReason(err, 'Forbidden') || hasReason(err, 'NotFound')) return;
          throw err;
        }
      },
      { onDrop: (ns, err) => deps.log.warn(`root-ca-cert-publisher: publishing ${ns}/${rootCAConfigMapName} failed: ${(err as Error).message}`) },
    );
    namespaces.addHandlers({ added: (ns) => queue.add(ns.metadata.name ?? ''), updated: (ns) => queue.add(ns.metadata.name ?? '') });
    const onConfigMap = (cm: KubeObject): void => {
      if (cm.metadata.name === rootCAConfigMapName) queue.add(cm.metadata.namespace ?? '');
    };
    configMaps.addHandlers({ updated: onConfigMap, deleted: onConfigMap });
    return () => {
      queue.stop();
      configMaps.stop();
    };
  },
};
