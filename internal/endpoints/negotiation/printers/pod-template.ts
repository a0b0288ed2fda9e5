/**
 * The wide Containers and Images cells of the kinds that embed a pod template (kube's
 * layoutContainerCells): names and images of the template's app containers, comma-joined.
 */
import { type Json, objectPath, objectsAt, stringAt } from './json-fields.js';

/** [names, images] of the app containers of a pod template's spec (missing spec: two empty strings). */
export function templateContainerCells(templateSpec: Json | undefined): [string, string] {
  const containers = objectsAt(templateSpec, 'containers');
  return [containers.map((c) => stringAt(c, 'name')).join(','), containers.map((c) => stringAt(c, 'image')).join(',')];
}

/** The pod spec of obj's spec.template (workloads) or spec.jobTemplate.spec.template (cronjobs). */
export function podTemplateSpec(obj: Json, ...path: string[]): Json | undefined {
  return objectPath(obj, ...path, 'template', 'spec');
}
