/**
 * The aggregator's shapes: an APIService as the aggregator reads it, and what the rest of the
 * server (the handler chain, discovery, OpenAPI) asks of the aggregator.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../api/meta/types.js';
import type { RequestContext } from '../request/context.js';

/** The service an APIService's requests go to. */
export interface ServiceReference {
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
}

/** One APIService, read from its object. Never mutated. */
export interface APIServiceView {
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
  /** Absent for a local APIService (served by this server itself). */
  readonly service?: ServiceReference;
  /** spec.caBundle decoded (PEM), when set. */
  readonly caBundle?: string;
  readonly insecureSkipTLSVerify: boolean;
  /** Whether status has Available=True. */
  readonly available: boolean;
  readonly object: KubeObject;
}

/** Where a service-backed APIService's requests are sent. */
export interface ResolvedBackend {
  /** host:port (IPv6 bracketed). */
  readonly host: string;
  /** The TLS server name to verify: "<service>.<namespace>.svc". */
  readonly serverName: string;
}

/** What the handler chain calls for every request that passed authorization. */
export interface AggregatorProxy {
  /**
   * Proxies req when its path is under a group version served by a service-backed APIService;
   * resolves true once answered, false when the request is not for one.
   */
  serve(req: IncomingMessage, res: ServerResponse, path: string, ctx: RequestContext): Promise<boolean>;
}
