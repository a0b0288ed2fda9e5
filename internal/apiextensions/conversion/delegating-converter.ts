/**
 * What kube does around every strategy (its delegatingCRConverter): the target and source
 * versions must be versions of the CRD; objects already in the target version are not sent;
 * what the strategy returns is checked (count, apiVersion, kind, name, namespace, uid) and keeps
 * the original metadata except labels and annotations. Failures reject with a ConversionError
 * carrying kube's text ("conversion for <gvk> failed: ...").
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { ConvertOptions, CustomResourceConverter } from '../interface.js';
import { restoreObjectMeta, validateConvertedObject } from './converted-object.js';
import { ConversionError } from './errors.js';
import { groupVersionKindString, groupVersionString, parseGroupVersion } from './group-version.js';
import type { VersionConverter } from './interface.js';
import { nopConvert } from './nop-converter.js';

/** A CRD's converter: the checks kube makes, around one strategy. */
export class DelegatingConverter implements CustomResourceConverter {
  /**
   * validApiVersions: "group/version" of every version the CRD lists. delegate is the strategy,
   * or an Error every conversion fails with (a CRD this server cannot convert for). nop: the
   * strategy is None, whose results need no checks.
   */
  constructor(
    private readonly validApiVersions: ReadonlySet<string>,
    private readonly delegate: VersionConverter | Error,
    private readonly nop: boolean,
  ) {}

  async convert(objects: readonly KubeObject[], apiVersion: string, options?: ConvertOptions): Promise<KubeObject[]> {
    try {
      return await this.run(objects, apiVersion, options?.list ?? objects.length !== 1);
    } catch (err) {
      if (err instanceof ConversionError) throw err;
      throw new ConversionError(err instanceof Error ? err.message : String(err));
    }
  }

  close(): void {
    if (!(this.delegate instanceof Error)) this.delegate.close?.();
  }

  private async run(objects: readonly KubeObject[], apiVersion: string, isList: boolean): Promise<KubeObject[]> {
    const first = objects[0];
    if (!first) return [];
    const target = groupVersionString(parseGroupVersion(apiVersion));
    if (!this.validApiVersions.has(apiVersion)) throw new Error(`request to convert CR to an invalid group/version: ${target}`);
    if (!isList && !this.validApiVersions.has(first.apiVersion ?? '')) {
      throw new Error(`request to convert CR from an invalid group/version: ${groupVersionString(parseGroupVersion(first.apiVersion))}`);
    }
    const toConvert: KubeObject[] = [];
    objects.forEach((o, i) => {
      if (isList && !this.validApiVersions.has(o.apiVersion ?? '')) {
        throw new Error(`request to convert CR list failed, list index ${i} has invalid group/version: ${groupVersionString(parseGroupVersion(o.apiVersion))}`);
      }
      if (o.apiVersion !== apiVersion) toConvert.push(o);
    });
    if (toConvert.length === 0) return [...objects];
    if (this.nop || (!isList && isEmptyObject(first))) return nopConvert(objects, apiVersion);
    if (this.delegate instanceof Error) throw this.delegate;
    // kube names the object (or list) it was asked to convert, and hands the strategy a list
    // that, for a single object, has no apiVersion or kind of its own.
    const inGvk = isList ? groupVersionKindString(first.apiVersion, `${first.kind}List`) : groupVersionKindString(first.apiVersion, first.kind);
    const listGvk = isList ? inGvk : groupVersionKindString('', '');
    let converted: unknown[];
    try {
      converted = await this.delegate.convert(toConvert, apiVersion, listGvk);
    } catch (err) {
      throw new Error(`conversion for ${inGvk} failed: ${(err as Error).message}`);
    }
    if (converted.length !== toConvert.length) throw new Error(`conversion for ${inGvk} returned ${converted.length} objects, expected ${toConvert.length}`);
    const out: KubeObject[] = [];
    let index = 0;
    for (const original of objects) {
      if (original.apiVersion === apiVersion) {
        out.push(original);
        continue;
      }
      const c = converted[index] as Record<string, unknown>;
      // kube counts the object before checking it, so its messages give 1-based indexes.
      index++;
      const invalid = (why: string) => new Error(`conversion for ${inGvk} returned invalid converted object at index ${index}: ${why}`);
      const got = groupVersionString(parseGroupVersion(c.apiVersion));
      if (got !== target) throw invalid(`invalid groupVersion (expected ${target}, received ${got})`);
      const kind = typeof c.kind === 'string' ? c.kind : '';
      if (kind !== original.kind) throw invalid(`invalid kind (expected ${original.kind}, received ${kind})`);
      const why = validateConvertedObject(original, c);
      if (why) throw invalid(why);
      const restored = restoreObjectMeta(original, c);
      if ('error' in restored) throw new Error(`conversion for ${inGvk} returned invalid metadata in object at index ${index}: ${restored.error}`);
      out.push(restored.object);
    }
    return out;
  }
}

/** An object with nothing but apiVersion and kind (kube converts those without calling a webhook). */
function isEmptyObject(o: KubeObject): boolean {
  const keys = Object.keys(o);
  return keys.length === 2 && 'apiVersion' in o && 'kind' in o;
}
