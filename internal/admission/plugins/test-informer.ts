/** An Informer stand-in for plugin unit tests: a fixed, synced set of objects keyed like an informer's. */
import type { KubeObject } from '../../../api/meta/types.js';
import { objectKey, type Informer } from '../../controllers/informer.js';

/** An informer holding objs. */
export function testInformer(objs: readonly KubeObject[], synced = true): Informer {
  const items = new Map(objs.map((o) => [objectKey(o), o]));
  const fake = {
    synced: synced ? Promise.resolve() : new Promise<void>(() => undefined),
    hasSynced: () => synced,
    get: (key: string) => items.get(key),
    list: () => items.values(),
    addHandlers: () => undefined,
  };
  return fake as unknown as Informer;
}
