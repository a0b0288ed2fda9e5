/**
 * The events resource of events.k8s.io/v1: the core/v1 Events under /events, served through a
 * conversion. Its own GenericStore names the group in errors (`events.events.k8s.io "x" not
 * found`) and applies the events.k8s.io strategy.
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { eventsKeyPrefix } from '../../core/events/store.js';
import { eventsV1Conversion } from './conversion.js';
import { eventsV1Strategy } from './strategy.js';

/** Builds the events.k8s.io/v1 events registration. */
export const eventsV1Module: ResourceModule = (deps) => {
  const store = new GenericStore({ group: 'events.k8s.io', resource: 'events', kind: 'Event', keyPrefix: eventsKeyPrefix }, eventsV1Strategy, deps.storage, {}, { ...deps.storeSettings, ...(deps.eventTTLSeconds ? { ttlSeconds: deps.eventTTLSeconds } : {}) });
  return [
    {
      group: 'events.k8s.io',
      version: 'v1',
      resource: 'events',
      namespaced: true,
      main: store,
      subresources: {},
      selectableFields: eventsV1Strategy.selectableFields,
      conversion: eventsV1Conversion,
    },
  ];
};
