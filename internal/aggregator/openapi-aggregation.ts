/**
 * kube's OpenAPI aggregation controllers: each Available service-backed APIService's
 * /openapi/v2 (its paths under /apis/<group>/ and its definitions) is merged into this server's
 * /openapi/v2, and its /openapi/v3 document of the group version is served at
 * /openapi/v3/apis/<group>/<version>. Fetched when the APIService changes and every minute; an
 * APIService that goes away takes its part out; one that becomes unavailable keeps its last.
 */
import type { Logger } from '../observability/logging.js';
import type { APIServiceIndex } from './api-services.js';
import { fetchFromBackend } from './fetch.js';
import type { APIServiceView } from './interface.js';
import type { ServiceResolver } from './service-resolver.js';
import type { BackendTransports } from './transport.js';

/** The two methods of the OpenAPI handlers the aggregator uses. */
export interface OpenApiSinks {
  readonly v2: { setFragment(id: string, fragment: { paths: Record<string, unknown>; definitions: Record<string, unknown> } | undefined): void };
  readonly v3: { setGroupVersion(path: string, doc: Record<string, unknown> | undefined): void };
}

const refreshMs = 60_000;

/** Keeps the extension servers' OpenAPI in this server's. */
export class OpenApiAggregation {
  private readonly served = new Map<string, { v2: string; v3: string; v3Body: string }>();
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: { readonly index: APIServiceIndex; readonly resolver: ServiceResolver; readonly transports: BackendTransports; readonly sinks: OpenApiSinks; readonly log: Logger },
  ) {}

  /** Starts following the APIServices. */
  start(): void {
    this.deps.index.onChange((name) => {
      const api = this.deps.index.get(name);
      // An APIService that becomes unavailable keeps its last documents, as kube's controller does.
      if (!api || !api.service) this.remove(name);
      else void this.refresh(api);
    });
    for (const api of this.deps.index.remote()) void this.refresh(api);
    this.timer = setInterval(() => {
      for (const api of this.deps.index.remote()) void this.refresh(api);
    }, refreshMs);
    this.timer.unref();
  }

  /** Stops refreshing. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private remove(name: string): void {
    const had = this.served.get(name);
    if (!had) return;
    this.served.delete(name);
    this.deps.sinks.v2.setFragment(`apiservice/${name}`, undefined);
    this.deps.sinks.v3.setGroupVersion(had.v3, undefined);
  }

  /** Fetches api's documents (one fetch per APIService at a time). */
  async refresh(api: APIServiceView): Promise<void> {
    if (this.inFlight.has(api.name) || !api.available || !api.service) return;
    this.inFlight.add(api.name);
    try {
      const backend = this.deps.resolver.resolve(api.service);
      const agent = this.deps.transports.agentFor(api);
      const prefix = `/apis/${api.group}/`;
      const v3Path = `apis/${api.group}/${api.version}`;
      const prior = this.served.get(api.name);
      let v2Body = prior?.v2 ?? '';
      let v3Body = prior?.v3Body ?? '';
      try {
        const v2 = JSON.parse((await fetchFromBackend(backend, agent, '/openapi/v2', 'application/json')).body.toString('utf8')) as { paths?: Record<string, unknown>; definitions?: Record<string, unknown> };
        const paths = Object.fromEntries(Object.entries(v2.paths ?? {}).filter(([p]) => p.startsWith(prefix) || p === prefix.slice(0, -1)));
        const fragment = { paths, definitions: v2.definitions ?? {} };
        const text = JSON.stringify(fragment);
        if (text !== v2Body) this.deps.sinks.v2.setFragment(`apiservice/${api.name}`, fragment);
        v2Body = text;
      } catch (err) {
        this.deps.log.v(2, `OpenAPI v2 of APIService ${api.name}: ${(err as Error).message}`);
      }
      try {
        const index = JSON.parse((await fetchFromBackend(backend, agent, '/openapi/v3', 'application/json')).body.toString('utf8')) as { paths?: Record<string, { serverRelativeURL?: string }> };
        const entry = index.paths?.[v3Path];
        if (entry?.serverRelativeURL) {
          const text = (await fetchFromBackend(backend, agent, entry.serverRelativeURL, 'application/json')).body.toString('utf8');
          if (text !== v3Body) this.deps.sinks.v3.setGroupVersion(v3Path, JSON.parse(text) as Record<string, unknown>);
          v3Body = text;
        }
      } catch (err) {
        this.deps.log.v(2, `OpenAPI v3 of APIService ${api.name}: ${(err as Error).message}`);
      }
      this.served.set(api.name, { v2: v2Body, v3: v3Path, v3Body });
    } catch (err) {
      this.deps.log.v(2, `OpenAPI of APIService ${api.name}: ${(err as Error).message}`);
    } finally {
      this.inFlight.delete(api.name);
    }
  }
}
