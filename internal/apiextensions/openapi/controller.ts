/**
 * The CRD OpenAPI publisher (kube's apiextensions openapi and openapiv3 controllers): follows
 * customresourcedefinitions through the shared informer and, for every Established CRD, publishes
 * its served versions: one /openapi/v2 fragment per CRD (all served versions merged) and, per group
 * version, one /openapi/v3 document merging the CRDs of that group version. A CRD that goes, or is
 * no longer Established, is taken out. Work is batched: events mark CRDs dirty and one pass per
 * turn of the event loop rebuilds them, so a burst (a restart with many CRDs) costs one publish.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { InformerHandlers } from '../../controllers/informer.js';
import type { Logger } from '../../observability/logging.js';
import { crdV1Conversion } from '../../registry/apiextensions/customresourcedefinitions/conversion.js';
import { viewCrd, type CrdView } from './crd-view.js';
import { buildCrdSwagger, type SwaggerFragment } from './v2-builder.js';
import { buildCrdOpenApiV3, mergeOpenApiV3, type OpenApiV3Document, type SchemaLibrary } from './v3-builder.js';

/** Where the publisher writes: the /openapi/v2 and /openapi/v3 handlers. */
export interface OpenApiPublishers {
  readonly v2: { setFragment(id: string, fragment: SwaggerFragment | undefined): void };
  readonly v3: { setGroupVersion(path: string, doc: object | undefined): void; readonly builtInSchema: SchemaLibrary };
}

/** What the publisher follows (an Informer of customresourcedefinitions). */
export interface CrdSource {
  addHandlers(h: InformerHandlers): void;
  get(key: string): KubeObject | undefined;
}

/** The v1 form of a CRD from the informer (which holds the stored v1beta1 form). */
function asV1(obj: KubeObject): KubeObject {
  return obj.apiVersion === 'apiextensions.k8s.io/v1' ? obj : crdV1Conversion.toExternal(obj);
}

/** The /openapi/v3 path of a group version. */
export function groupVersionPath(group: string, version: string): string {
  return `apis/${group}/${version}`;
}

/** Publishes CRDs' OpenAPI; start() registers it with the informer and returns its stop. */
export class CrdOpenApiController {
  /** Per CRD name: the key of what was published (uid, generation, conditions) and its v3 documents by group version path. */
  private readonly published = new Map<string, { key: string; v3: Map<string, OpenApiV3Document> }>();
  /** Per group version path: the v3 documents of its CRDs by CRD name. */
  private readonly byGroupVersion = new Map<string, Map<string, OpenApiV3Document>>();
  private readonly dirty = new Set<string>();
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly source: CrdSource,
    private readonly publishers: OpenApiPublishers,
    private readonly log: Logger,
  ) {}

  /** Starts following CRDs; the returned function stops publishing changes (what is published stays). */
  start(): () => void {
    const mark = (obj: KubeObject): void => this.enqueue(obj.metadata.name ?? '');
    this.source.addHandlers({ added: mark, updated: mark, deleted: mark });
    return () => {
      this.stopped = true;
    };
  }

  private enqueue(name: string): void {
    if (this.stopped || !name) return;
    this.dirty.add(name);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Rebuilds every dirty CRD now (tests call it to skip the wait). */
  flush(): void {
    if (this.stopped) return;
    const touched = new Set<string>();
    for (const name of this.dirty) {
      try {
        this.sync(name, touched);
      } catch (err) {
        this.log.error(`publishing the OpenAPI of customresourcedefinition ${name} failed: ${(err as Error).message}`);
      }
    }
    this.dirty.clear();
    for (const path of touched) {
      const docs = this.byGroupVersion.get(path);
      if (!docs || docs.size === 0) {
        this.byGroupVersion.delete(path);
        this.publishers.v3.setGroupVersion(path, undefined);
      } else {
        this.publishers.v3.setGroupVersion(path, mergeOpenApiV3([...docs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, d]) => d)));
      }
    }
  }

  private sync(name: string, touched: Set<string>): void {
    const obj = this.source.get(name);
    const crd: CrdView | undefined = obj ? viewCrd(asV1(obj)) : undefined;
    const before = this.published.get(name);
    if (!crd || !crd.established) {
      if (!before) return;
      this.unpublishV3(name, before.v3, touched);
      this.published.delete(name);
      this.publishers.v2.setFragment(fragmentId(name), undefined);
      return;
    }
    const key = `${crd.uid},${crd.generation},${crd.nonStructural}`;
    if (before?.key === key) return;
    const v3 = new Map<string, OpenApiV3Document>();
    for (const version of crd.versions) {
      if (version.served) v3.set(groupVersionPath(crd.group, version.name), buildCrdOpenApiV3(crd, version, this.publishers.v3.builtInSchema));
    }
    const fragment = buildCrdSwagger(crd);
    if (before) this.unpublishV3(name, before.v3, touched);
    for (const [path, doc] of v3) {
      let docs = this.byGroupVersion.get(path);
      if (!docs) this.byGroupVersion.set(path, (docs = new Map()));
      docs.set(name, doc);
      touched.add(path);
    }
    this.published.set(name, { key, v3 });
    this.publishers.v2.setFragment(fragmentId(name), Object.keys(fragment.paths).length > 0 ? fragment : undefined);
  }

  private unpublishV3(name: string, docs: Map<string, OpenApiV3Document>, touched: Set<string>): void {
    for (const path of docs.keys()) {
      this.byGroupVersion.get(path)?.delete(name);
      touched.add(path);
    }
  }
}

/** The /openapi/v2 fragment id of a CRD. */
export function fragmentId(crdName: string): string {
  return `customresourcedefinition/${crdName}`;
}
