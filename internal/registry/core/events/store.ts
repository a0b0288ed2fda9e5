/**
 * The events resource (core/v1), stored under /events/<namespace>/<name>. events.k8s.io/v1
 * serves the same stored objects (see internal/registry/events/events).
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { eventStrategy } from './strategy.js';

/** The key prefix core and events.k8s.io events share. */
export const eventsKeyPrefix = '/events';

/** Builds the core/v1 events registration. */
export const eventsModule: ResourceModule = (deps) => {
  const store = new GenericStore({ group: '', resource: 'events', kind: 'Event', keyPrefix: eventsKeyPrefix }, eventStrategy, deps.storage, {}, { ...deps.storeSettings, ...(deps.eventTTLSeconds ? { ttlSeconds: deps.eventTTLSeconds } : {}) });
  return [{ group: '', version: 'v1', resource: 'events', namespaced: true, main: store, subresources: {}, selectableFields: eventStrategy.selectableFields }];
};
