/**
 * Serves discovery and /version. Documents are built once per installer and cached as bytes with
 * an ETag (If-None-Match answers 304), since clients fetch them constantly.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFoundFor } from '../not-found.js';
import { defaultGitVersion, serverVersionInfo } from '../../version/info.js';
import type { ApiInstaller } from '../installer.js';
import { parseAccept } from '../negotiation/media-type.js';
import { encodeBody, wantsPretty, writeBody } from '../negotiation/writer.js';
import { aggregatedDiscovery, aggregatedGroupItem, aggregatedList, apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './documents.js';
import { mergedApiGroup, mergedGroups, remoteAggregatedItem, type ExternalDiscovery } from './external.js';

interface CachedDocument {
  readonly body: Buffer;
  readonly etag: string;
  readonly contentType: string;
}

/**
 * A document's bytes: compact JSON ending with a newline (kube writes discovery through its
 * serializer), except /version, which kube writes indented and without one (WriteRawJSON).
 */
function cached(value: unknown, contentType: string, indented = false): CachedDocument {
  const body = encodeBody(value, 'json', indented);
  return { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`, contentType };
}

/** Which aggregated discovery version the Accept header prefers, if any. */
function aggregatedVersion(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  for (const r of parseAccept(accept)) {
    if (r.params.as === 'APIGroupDiscoveryList' && r.params.g === 'apidiscovery.k8s.io' && (r.params.v === 'v2' || r.params.v === 'v2beta1')) {
      return r.params.v;
    }
    if (r.params.as === undefined && (r.subtype === 'json' || r.subtype === '*' || r.type === '*')) return undefined;
  }
  return undefined;
}

/** Answers discovery paths; returns false for paths it does not own. */
export class DiscoveryHandler {
  private readonly cache = new Map<string, CachedDocument>();
  private external: ExternalDiscovery | undefined;

  constructor(
    private readonly installer: ApiInstaller,
    private readonly serverAddress: () => string,
    /** --version=vX.Y.Z's git version, or the built-in one. */
    private readonly gitVersion: string = defaultGitVersion,
    /** The StorageVersionHash gate (kube 1.33: on): resource lists carry each resource's storageVersionHash. */
    private readonly storageVersionHash = true,
  ) {
    // Custom resources come and go at run time: the documents are rebuilt on the next request.
    installer.onChange(() => this.cache.clear());
  }

  /** Merges the groups of extension servers (the aggregator's) into /apis and /apis/<group>. Call once. */
  setExternal(external: ExternalDiscovery): void {
    this.external = external;
    external.onChange(() => this.cache.clear());
    this.cache.clear();
  }

  private apisList(): Record<string, unknown> {
    if (!this.external) return apiGroupList(this.installer);
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: mergedGroups(this.installer, this.external).map(mergedApiGroup) };
  }

  private apisAggregated(apiVersion: string): Record<string, unknown> {
    if (!this.external) return aggregatedDiscovery(this.installer, false, apiVersion);
    const items = mergedGroups(this.installer, this.external).flatMap((g) => {
      if (g.local) {
        const own = new Set(g.local.versions.map((v) => v.version));
        const remote = remoteAggregatedItem({ ...(g.remote ?? { group: g.group, groupPriority: 0 }), versions: (g.remote?.versions ?? []).filter((v) => !own.has(v.version)) });
        return [aggregatedGroupItem(g.local, (remote?.versions as unknown[] | undefined) ?? [])];
      }
      const item = g.remote ? remoteAggregatedItem(g.remote) : undefined;
      return item ? [item] : [];
    });
    return aggregatedList(apiVersion, items);
  }

  private apiGroup(group: string): Record<string, unknown> | undefined {
    if (!this.external) return apiGroupDocument(this.installer, group);
    const g = mergedGroups(this.installer, this.external).find((x) => x.group === group);
    return g ? { kind: 'APIGroup', apiVersion: 'v1', ...mergedApiGroup(g) } : undefined;
  }

  private document(key: string, build: () => { value: unknown; contentType: string; indented?: boolean } | undefined): CachedDocument | undefined {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const built = build();
    if (!built) return undefined;
    const doc = cached(built.value, built.contentType, built.indented);
    this.cache.set(key, doc);
    return doc;
  }

  private resolve(path: string, accept: string | undefined): CachedDocument | undefined | 'not-mine' {
    const parts = path.replace(/^\/+|\/+$/g, '').split('/');
    const agg = aggregatedVersion(accept);
    const aggType = (v: string): string => `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
    if (parts.length === 1 && parts[0] === 'version') return this.document('version', () => ({ value: serverVersionInfo(this.gitVersion), contentType: 'application/json', indented: true }));
    if (parts[0] === 'api') {
      if (parts.length === 1) {
        if (agg) return this.document(`agg-api-${agg}`, () => ({ value: aggregatedDiscovery(this.installer, true, `apidiscovery.k8s.io/${agg}`), contentType: aggType(agg) }));
        return cached(apiVersions(this.serverAddress()), 'application/json');
      }
      if (parts.length === 2) {
        const v = this.installer.groupVersion('', parts[1] as string);
        return v ? this.document(`api/${v.version}`, () => ({ value: apiResourceList(v, this.storageVersionHash), contentType: 'application/json' })) : undefined;
      }
      return 'not-mine';
    }
    if (parts[0] === 'apis') {
      if (parts.length === 1) {
        if (agg) return this.document(`agg-apis-${agg}`, () => ({ value: this.apisAggregated(`apidiscovery.k8s.io/${agg}`), contentType: aggType(agg) }));
        return this.document('apis', () => ({ value: this.apisList(), contentType: 'application/json' }));
      }
      if (parts.length === 2) {
        const g = parts[1] as string;
        return this.document(`apis/${g}`, () => {
          const doc = this.apiGroup(g);
          return doc ? { value: doc, contentType: 'application/json' } : undefined;
        });
      }
      if (parts.length === 3) {
        const v = this.installer.groupVersion(parts[1] as string, parts[2] as string);
        return v ? this.document(`apis/${v.group}/${v.version}`, () => ({ value: apiResourceList(v, this.storageVersionHash), contentType: 'application/json' })) : undefined;
      }
    }
    return 'not-mine';
  }

  /** Serves req when it is a discovery GET; throws 404 for unknown groups; false when not a discovery path. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const doc = this.resolve(path, req.headers.accept);
    if (doc === 'not-mine') return false;
    if (!doc) throw notFoundFor(this.installer, path);
    res.setHeader('Vary', 'Accept');
    res.setHeader('ETag', doc.etag);
    if (req.headers['if-none-match'] === doc.etag) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    const body = wantsPretty(req, query) ? encodeBody(JSON.parse(doc.body.toString()), 'json', true) : doc.body;
    await writeBody(req, res, 200, doc.contentType, body);
    return true;
  }
}
