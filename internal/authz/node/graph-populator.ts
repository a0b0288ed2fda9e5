/**
 * Keeps the Node authorizer's graph from informers (kube's graphPopulator): pods (only those bound
 * to a node), persistent volumes, volume attachments and resource slices, each followed through
 * its RestStorage (the watch cache). A pod update is re-applied only when what it contributes can
 * have changed (node, uid, ephemeral containers, generated claim names), so status updates cost one
 * comparison. Resources the server does not serve are skipped.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { Informer } from '../../controllers/informer.js';
import type { Logger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import { Graph } from './graph.js';
import { addNodeObject, addPod, addPV, deleteNodeObject, deletePod, deletePV, nodeNameOf } from './object-edges.js';

type Obj = Record<string, unknown>;

function podUnchanged(pod: KubeObject, old: KubeObject): boolean {
  if (nodeNameOf(pod) !== nodeNameOf(old) || pod.metadata.uid !== old.metadata.uid) return false;
  const spec = (pod as Obj).spec as Obj | undefined;
  const oldSpec = (old as Obj).spec as Obj | undefined;
  const status = (pod as Obj).status as Obj | undefined;
  const oldStatus = (old as Obj).status as Obj | undefined;
  // Ephemeral containers and generated claim names are the only references that change after binding.
  return (
    JSON.stringify(spec?.ephemeralContainers) === JSON.stringify(oldSpec?.ephemeralContainers) &&
    JSON.stringify(status?.resourceClaimStatuses) === JSON.stringify(oldStatus?.resourceClaimStatuses)
  );
}

/** Follows the resources the graph is made of; start() it once. */
export class GraphPopulator {
  readonly graph = new Graph();
  private readonly informers: Informer[] = [];

  constructor(
    private readonly storageOf: (group: string, resource: string) => RestStorage | undefined,
    private readonly log: Logger,
  ) {}

  /** Starts the informers; resolves once each has loaded its first list. */
  start(): Promise<void> {
    const g = this.graph;
    this.follow('', 'pods', {
      added: (pod) => {
        if (nodeNameOf(pod)) addPod(g, pod);
      },
      updated: (pod, old) => {
        if (!nodeNameOf(pod) || (nodeNameOf(old) && podUnchanged(pod, old))) return;
        addPod(g, pod);
      },
      deleted: (pod) => {
        if (nodeNameOf(pod)) deletePod(g, pod.metadata.namespace ?? '', pod.metadata.name ?? '');
      },
    });
    this.follow('', 'persistentvolumes', {
      added: (pv) => addPV(g, pv),
      updated: (pv) => addPV(g, pv),
      deleted: (pv) => deletePV(g, pv.metadata.name ?? ''),
    });
    for (const [group, resource, type] of [
      ['storage.k8s.io', 'volumeattachments', 'volumeattachment'],
      ['resource.k8s.io', 'resourceslices', 'resourceslice'],
    ] as const) {
      this.follow(group, resource, {
        added: (o) => addNodeObject(g, type, o.metadata.name ?? '', nodeNameOf(o)),
        updated: (o, old) => {
          if (nodeNameOf(o) !== nodeNameOf(old)) addNodeObject(g, type, o.metadata.name ?? '', nodeNameOf(o));
        },
        deleted: (o) => deleteNodeObject(g, type, o.metadata.name ?? ''),
      });
    }
    return Promise.all(this.informers.map((i) => i.synced)).then(() => undefined);
  }

  /** Stops every informer. */
  stop(): void {
    for (const i of this.informers) i.stop();
  }

  private follow(group: string, resource: string, handlers: Parameters<Informer['addHandlers']>[0]): void {
    const storage = this.storageOf(group, resource);
    if (!storage) {
      this.log.v(2, `node authorizer: ${resource}${group ? `.${group}` : ''} is not served; its objects grant nothing`);
      return;
    }
    const informer = new Informer({ storage, group, resource, log: this.log });
    informer.addHandlers(handlers);
    informer.start();
    this.informers.push(informer);
  }
}
