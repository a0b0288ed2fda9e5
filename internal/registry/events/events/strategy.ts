/**
 * events.k8s.io/v1 Event rules: the core Event strategy (which applies the stricter events.k8s.io
 * validation when the request came through this group), with names checked as DNS subdomains
 * (kube's ValidateEventCreate does so for this group) and field selectors in this group's
 * spellings mapped onto the stored core/v1 fields.
 */
import type { Strategy } from '../../generic/strategy.js';
import { eventFieldLabels, eventSelectableFields, eventStrategy } from '../../core/events/strategy.js';

/**
 * events.k8s.io's field labels mapped to the stored spellings (kube's
 * AddFieldLabelConversionsForEvent in pkg/apis/events/v1). The ones spelled alike (reason, type,
 * source, metadata.*) need no alias.
 */
export const eventsV1FieldAliases: Readonly<Record<string, string>> = {
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
};

/** The events.k8s.io/v1 Event strategy. */
export const eventsV1Strategy = {
  ...eventStrategy,
  nameValidation: 'subdomain',
  // kube's events.k8s.io conversion refuses other labels with "field label not supported".
  selectableFields: { extra: eventFieldLabels, style: 'core', aliases: eventsV1FieldAliases, values: eventSelectableFields },
} satisfies Strategy;
