/**
 * Event rules (kube's pkg/registry/core/event), shared by core/v1 and events.k8s.io/v1 (both
 * write core/v1 Events under /events): which validation applies depends on the group the request
 * came through. Events have no garbage-collection policy.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { SelectableFields, Strategy } from '../../generic/strategy.js';
import { validateEventCreate, validateEventUpdate } from '../shared/event-validation.js';
import { objectAt, stringAt, type JsonObject } from '../shared/json-value.js';

/** The fields of a stored (core/v1) Event for field selectors, as kube's ToSelectableFields gives them. */
export function eventSelectableFields(obj: KubeObject): Record<string, string> {
  const e = obj as JsonObject;
  const involved = objectAt(e, 'involvedObject');
  // Events written through events.k8s.io have no source; kube falls back to the controller.
  const source = stringAt(objectAt(e, 'source'), 'component') || stringAt(e, 'reportingComponent');
  return {
    'involvedObject.kind': stringAt(involved, 'kind'),
    'involvedObject.namespace': stringAt(involved, 'namespace'),
    'involvedObject.name': stringAt(involved, 'name'),
    'involvedObject.uid': stringAt(involved, 'uid'),
    'involvedObject.apiVersion': stringAt(involved, 'apiVersion'),
    'involvedObject.resourceVersion': stringAt(involved, 'resourceVersion'),
    'involvedObject.fieldPath': stringAt(involved, 'fieldPath'),
    reason: stringAt(e, 'reason'),
    reportingComponent: stringAt(e, 'reportingComponent'),
    source,
    type: stringAt(e, 'type'),
  };
}

/** The stored spellings of the Event field selectors. */
export const eventFieldLabels: readonly string[] = Object.keys(eventSelectableFields({ metadata: {} }));

const coreEventFields: SelectableFields = { extra: eventFieldLabels, style: 'core', values: eventSelectableFields };

/** The core/v1 Event strategy (also the base of the events.k8s.io one). */
export const eventStrategy = {
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: false,
  // kube checks core Event names only as API path segments.
  nameValidation: 'path-segment',
  defaultGarbageCollectionPolicy: 'Unsupported',
  selectableFields: coreEventFields,
  prepareForCreate(_ctx, _obj) {},
  validate(ctx, obj) {
    return validateEventCreate(obj, ctx.requestInfo);
  },
  prepareForUpdate(_ctx, _obj, _old) {},
  validateUpdate(ctx, obj, old) {
    return validateEventUpdate(obj, old, ctx.requestInfo);
  },
} satisfies Strategy;

