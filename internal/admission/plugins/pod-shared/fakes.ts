/**
 * Test support for the pod plugins' unit tests: admission attributes for a request and an
 * in-memory stand-in for a synced shared informer holding given objects.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer, InformerHandlers } from '../../../controllers/informer.js';
import type { RequestContext, UserInfo } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../interface.js';

/** A request context with a warnings list (all the plugins touch). */
export const testContext = { warnings: [] } as unknown as RequestContext;

/** Attributes of a request; the resource defaults to pods in namespace "ns". */
export function attrsFor(
  operation: AdmissionOperation,
  object: KubeObject | undefined,
  opts: { resource?: string; group?: string; kind?: string; subresource?: string; namespace?: string; name?: string; oldObject?: KubeObject; user?: UserInfo } = {},
): AdmissionAttributes {
  return {
    operation,
    group: opts.group ?? '',
    version: 'v1',
    resource: opts.resource ?? 'pods',
    subresource: opts.subresource ?? '',
    kind: opts.kind ?? 'Pod',
    namespace: opts.namespace ?? 'ns',
    name: opts.name ?? object?.metadata.name ?? '',
    object,
    oldObject: opts.oldObject,
    dryRun: false,
    userInfo: opts.user ?? { name: 'alice', groups: ['system:authenticated'] },
    addAnnotation: () => undefined,
  };
}

/** A synced informer holding objects, keyed as the real one keys them; add/remove notify handlers. */
export class FakeInformer {
  private readonly items = new Map<string, KubeObject>();
  private readonly handlers: InformerHandlers[] = [];
  readonly synced = Promise.resolve();

  constructor(objects: readonly KubeObject[] = []) {
    for (const o of objects) this.add(o);
  }

  private key(o: KubeObject): string {
    return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');
  }

  add(o: KubeObject): void {
    this.items.set(this.key(o), o);
    for (const h of this.handlers) h.added?.(o);
  }

  remove(o: KubeObject): void {
    this.items.delete(this.key(o));
    for (const h of this.handlers) h.deleted?.(o);
  }

  get(key: string): KubeObject | undefined {
    return this.items.get(key);
  }

  list(): IterableIterator<KubeObject> {
    return this.items.values();
  }

  hasSynced(): boolean {
    return true;
  }

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    for (const o of this.items.values()) h.added?.(o);
  }

  /** This fake typed as the Informer the plugins take. */
  asInformer(): Informer {
    return this as unknown as Informer;
  }
}

/** A pod in namespace "ns" with the given spec. */
export function pod(name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ...metadata }, spec };
}
