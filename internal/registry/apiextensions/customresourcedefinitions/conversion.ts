/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition <-> the stored v1beta1 form (kube stores CRDs
 * as v1beta1, through the internal type): spec.version is the first version; a schema,
 * subresources, printer columns or selectable fields that every version shares move to the
 * top-level validation / subresources / additionalPrinterColumns / selectableFields (and back
 * into every version when read); printer columns spell jsonPath as JSONPath; the conversion
 * webhook's clientConfig and review versions sit directly in spec.conversion; and
 * preserveUnknownFields is always written. Both directions return new objects.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { asObject, type JsonObject } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { rewritingConversion } from '../../shared/conversion.js';

/** [per-version field in v1, top-level field in v1beta1]. */
const hoistable: ReadonlyArray<readonly [string, string]> = [
  ['schema', 'validation'],
  ['subresources', 'subresources'],
  ['additionalPrinterColumns', 'additionalPrinterColumns'],
  ['selectableFields', 'selectableFields'],
];

function renameColumns(columns: unknown, from: string, to: string): unknown {
  if (!Array.isArray(columns)) return columns;
  return columns.map((c) => {
    const col = asObject(c);
    if (!col || !(from in col)) return c;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(col)) out[k === from ? to : k] = v;
    return out;
  });
}

function versionsOf(spec: JsonObject): JsonObject[] {
  return Array.isArray(spec.versions) ? spec.versions.map((v) => asObject(v) ?? {}) : [];
}

/** v1 -> stored v1beta1. Mutates the copy it is given. */
function toV1beta1(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  const versions = versionsOf(spec);
  for (const v of versions) v.additionalPrinterColumns = renameColumns(v.additionalPrinterColumns, 'jsonPath', 'JSONPath');
  for (const v of versions) if (v.additionalPrinterColumns === undefined) delete v.additionalPrinterColumns;
  if (versions.length > 0) {
    spec.version = versions[0]?.name;
    for (const [perVersion, topLevel] of hoistable) {
      const first = versions[0]?.[perVersion];
      const shared = first !== undefined && first !== null && versions.every((v) => v[perVersion] !== undefined && v[perVersion] !== null && semanticEqual(v[perVersion], first));
      if (!shared) continue;
      spec[topLevel] = first;
      for (const v of versions) delete v[perVersion];
    }
    spec.versions = versions;
  }
  const conversion = asObject(spec.conversion);
  const webhook = asObject(conversion?.webhook);
  if (conversion && webhook) {
    delete conversion.webhook;
    if (webhook.clientConfig !== undefined) conversion.webhookClientConfig = webhook.clientConfig;
    if (webhook.conversionReviewVersions !== undefined) conversion.conversionReviewVersions = webhook.conversionReviewVersions;
  }
  spec.preserveUnknownFields = spec.preserveUnknownFields === true;
}

/** Stored v1beta1 -> v1. Mutates the copy it is given. */
function toV1(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  let versions = versionsOf(spec);
  if (versions.length === 0 && typeof spec.version === 'string' && spec.version) versions = [{ name: spec.version, served: true, storage: true }];
  for (const [perVersion, topLevel] of hoistable) {
    const value = spec[topLevel];
    delete spec[topLevel];
    if (value === undefined || value === null) continue;
    for (const v of versions) v[perVersion] = structuredClone(value);
  }
  for (const v of versions) {
    if (v.additionalPrinterColumns !== undefined) v.additionalPrinterColumns = renameColumns(v.additionalPrinterColumns, 'JSONPath', 'jsonPath');
  }
  delete spec.version;
  if (versions.length > 0) spec.versions = versions;
  const conversion = asObject(spec.conversion);
  if (conversion && (conversion.webhookClientConfig !== undefined || conversion.conversionReviewVersions !== undefined)) {
    const webhook: JsonObject = {};
    if (conversion.webhookClientConfig !== undefined) webhook.clientConfig = conversion.webhookClientConfig;
    if (conversion.conversionReviewVersions !== undefined) webhook.conversionReviewVersions = conversion.conversionReviewVersions;
    delete conversion.webhookClientConfig;
    delete conversion.conversionReviewVersions;
    conversion.webhook = webhook;
  }
  if (spec.preserveUnknownFields === true) spec.preserveUnknownFields = true;
  else delete spec.preserveUnknownFields;
}

/** The apiextensions.k8s.io/v1 conversion over the stored v1beta1 form. */
export const crdV1Conversion = rewritingConversion(toV1, toV1beta1);

/** The stored form as v1 (for validation written against v1's shape). Never mutates. */
export const crdAsV1 = (stored: KubeObject): KubeObject => crdV1Conversion.toExternal(stored);
