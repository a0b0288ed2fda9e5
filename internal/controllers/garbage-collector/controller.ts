/**
 * The garbage collector, inside the API server (kube runs it in kube-controller-manager): follows
 * every deletable resource through metadata informers (fed by the watch caches, never by polling
 * etcd), keeps the dependency graph of owner references, and runs the attempt-to-delete and
 * attempt-to-orphan queues once every informer has synced.
 */
import type { InServerController } from '../../server/in-server-controllers.js';
import { AttemptToDelete } from './attempt-to-delete.js';
import { attemptToOrphan } from './attempt-to-orphan.js';
import { DependencyGraph, type GraphNode } from './graph.js';
import { GraphBuilder } from './graph-builder.js';
import { GCOperations } from './operations.js';
import { WorkQueue } from './queue.js';
import { MetadataInformers, servedResources } from './resources.js';
import { groupOf, type GCResource } from './interface.js';
import type { KubeObject } from '../../../api/meta/types.js';
import type { Informer } from '../informer.js';
import { generatedResources } from '../../../api/gen/resources.js';

/** kube-controller-manager's --concurrent-gc-syncs default. */
const workers = 20;

/** The garbage collector controller. */
export const garbageCollectorController: InServerController = {
  name: 'garbage-collector-controller',
  controllerManagerAlias: 'garbagecollector',
  start(deps) {
    const log = (level: number, message: string): void => deps.log.v(level, `garbage collector: ${message}`);
    const mapper = servedResources(deps.storageOf, deps.served?.dynamicResources() ?? []);
    const ops = new GCOperations(deps.storageOf, log);
    const keyOf = (n: GraphNode): string => n.identity.uid;
    const deleteQueue = new WorkQueue<GraphNode>(keyOf);
    const orphanQueue = new WorkQueue<GraphNode>(keyOf);
    const graph = new DependencyGraph();
    const builder = new GraphBuilder(graph, deleteQueue, orphanQueue, (dep, ref) => ops.reportInvalidOwnerNamespace(dep.identity, ref));
    // The informers keep only what takes part in ownership; the rest pass through to the graph.
    const keep = (obj: KubeObject): boolean => {
      const m = obj.metadata;
      return (m.ownerReferences?.length ?? 0) > 0 || (m.finalizers?.length ?? 0) > 0 || Boolean(m.deletionTimestamp) || (m.uid !== undefined && graph.get(m.uid) !== undefined);
    };
    const lookup = new MetadataInformers(deps.storageOf, mapper.all(), deps.log, keep);
    const deleter = new AttemptToDelete({ builder, mapper, lookup, ops, queue: deleteQueue, log });
    const synced: Promise<void>[] = [];
    const monitor = (resource: GCResource, informer: Informer): void => {
      informer.addHandlers({
        added: (obj) => builder.upsert(resource, obj),
        updated: (obj, old) => builder.upsert(resource, obj, old),
        deleted: (obj) => builder.deleted(obj),
        // An owner the informer did not keep may have gone while it was not watching: its observed
        // nodes are looked at again (attempt-to-delete reads the object and finds it gone).
        relisted: () => {
          for (const node of graph.all()) {
            if (node.observed && node.identity.kind === resource.kind && groupOf(node.identity.apiVersion) === resource.group) deleteQueue.add(node);
          }
        },
      });
    };
    for (const resource of mapper.all()) {
      const informer = lookup.of(resource);
      monitor(resource, informer);
      synced.push(informer.synced);
    }
    lookup.start();
    let stopped = false;
    // Custom resources come and go: a monitor starts for each new one and stops with it (kube's
    // GC resyncs its monitors from discovery).
    deps.served?.onChange(() => {
      if (stopped) return;
      const now = deps.served?.dynamicResources() ?? [];
      for (const r of now) {
        const resource = mapper.add(r);
        if (!resource) continue;
        const informer = lookup.add(resource);
        if (!informer) continue;
        monitor(resource, informer);
        informer.start();
        log(2, `started monitor for ${resource.resource}.${resource.group}`);
      }
      for (const resource of mapper.all()) {
        if (!resource.group || !now.every((r) => r.group !== resource.group || r.resource !== resource.resource)) continue;
        if (generatedResources.some((g) => g.group === resource.group && g.resource === resource.resource)) continue;
        mapper.remove(resource.group, resource.resource);
        lookup.remove(resource);
        log(2, `stopped monitor for ${resource.resource}.${resource.group}`);
      }
    });
    void Promise.all(synced).then(() => {
      if (stopped) return;
      log(1, `all resource monitors have synced (${mapper.all().length} resources); proceeding to collect garbage`);
      deleteQueue.run(workers, (node) => deleter.process(node));
      orphanQueue.run(workers, (node) => attemptToOrphan(node, mapper, ops, log));
    });
    return () => {
      stopped = true;
      lookup.stop();
      deleteQueue.stop();
      orphanQueue.stop();
    };
  },
};
