/**
 * The resource dispatcher: routes a resource request (by its RequestInfo) to the scope of the
 * (sub)resource and the handler of its verb, enforcing scope rules (namespaced resources need a
 * namespace except for list and watch; cluster resources take none) and answering 404/405 for
 * what is not served.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdmissionChain } from '../admission/chain.js';
import { newPathNotFound } from '../apierrors/factories.js';
import { notFoundFor } from './not-found.js';
import { addWarning, type RequestContext } from '../request/context.js';
import type { RequestInfo } from '../request/request-info.js';
import { escapeFieldValue } from '../selectors/fields.js';
import type { Handler, HandlerInput } from './handlers/common.js';
import { connectHandler } from './handlers/connect.js';
import { createHandler } from './handlers/create.js';
import { deleteCollectionHandler } from './handlers/delete-collection.js';
import { deleteHandler } from './handlers/delete.js';
import { getHandler } from './handlers/get.js';
import { listHandler } from './handlers/list.js';
import { guardNesting } from './handlers/nesting-guard.js';
import { methodNotAllowed } from './handlers/method-not-allowed.js';
import { patchHandler } from './handlers/patch.js';
import { updateHandler } from './handlers/update.js';
import type { ApiInstaller } from './installer.js';
import type { ResourceScope } from './scope.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { KlogLogger } from '../observability/logging.js';

const handlers: Record<string, Handler> = {
  get: getHandler,
  list: listHandler,
  watch: listHandler,
  create: guardNesting(createHandler),
  update: guardNesting(updateHandler),
  patch: guardNesting(patchHandler),
  delete: guardNesting(deleteHandler),
  deletecollection: guardNesting(deleteCollectionHandler),
};

/** Options of the dispatcher. */
export interface DispatcherOptions {
  readonly minRequestTimeoutSeconds: number;
  /** Ends the watches that carry no shutdown signal of their own, when the server finally stops. */
  readonly shutdown: AbortSignal;
  readonly metrics?: ServerMetrics;
  /** The server's logger: a watch logs its start at -v=3, as kube's does. */
  readonly log?: KlogLogger;
  /** The WatchList gate (kube 1.33: off): whether watches may ask for sendInitialEvents. */
  readonly watchList?: boolean;
}

/** Routes resource requests. */
export class ResourceDispatcher {
  constructor(
    private readonly installer: ApiInstaller,
    private readonly admission: AdmissionChain,
    private readonly options: DispatcherOptions,
  ) {}

  /**
   * The request info as the handlers should see it: the namespaces resource names itself through
   * the namespace segment, and a watch of a named object selects it by metadata.name.
   */
  private normalise(info: RequestInfo, query: URLSearchParams): { info: RequestInfo; watchPath: boolean } {
    let out = info;
    if (info.apiGroup === '' && info.resource === 'namespaces') {
      out = { ...info, name: info.parts[1] ?? '', namespace: '', subresource: info.parts[2] ?? '' };
    }
    const watchPath = info.path.includes(`/${info.apiVersion}/watch/`);
    if ((out.verb === 'watch' || out.verb === 'list') && out.parts.length >= 2 && out.subresource === '') {
      const term = `metadata.name=${escapeFieldValue(out.parts[1] as string)}`;
      const existing = query.get('fieldSelector');
      query.set('fieldSelector', existing ? `${term},${existing}` : term);
      if (out.verb === 'list') out = { ...out, verb: 'watch' };
      if (!watchPath) query.set('watch', 'true');
    }
    return { info: out, watchPath };
  }

  /** Serves a resource request; throws StatusErrors for the caller to write. */
  async handle(req: IncomingMessage, res: ServerResponse, ctx: RequestContext, query: URLSearchParams): Promise<void> {
    const { info, watchPath } = this.normalise(ctx.requestInfo, query);
    const scope = this.installer.lookup(info.apiGroup, info.apiVersion, info.resource, info.subresource);
    if (!scope) throw notFoundFor(this.installer, info.path);
    // A deprecated custom resource version warns on every request to it, as kube's CRD handler does.
    // Subresources of another kind (a custom resource's Scale) warn as their resource does.
    const deprecation = scope.custom?.deprecationWarning ?? (info.subresource !== '' ? this.installer.lookup(info.apiGroup, info.apiVersion, info.resource, '')?.custom?.deprecationWarning : undefined);
    if (deprecation) addWarning(ctx, deprecation);
    if (scope.storage.connect) return await this.connect(req, res, ctx, query, scope, info);
    if (info.parts.length > 3 || (info.subresource !== '' && info.name === '')) throw newPathNotFound();
    if (!scope.namespaced && info.namespace !== '') throw newPathNotFound();
    const collectionVerb = info.verb === 'list' || info.verb === 'watch' || info.verb === 'create' || info.verb === 'deletecollection';
    if (scope.namespaced && info.namespace === '' && !(info.verb === 'list' || info.verb === 'watch')) throw newPathNotFound();
    if (info.name === '' && !collectionVerb) throw methodNotAllowed();
    // A create names its object in the body, except on a subresource, which names its parent in the
    // path (serviceaccounts/<name>/token): kube's NamedCreater.
    if (info.name !== '' && ((info.verb === 'create' && info.subresource === '') || info.verb === 'deletecollection')) throw methodNotAllowed();
    if (info.subresource !== '' && !['get', 'update', 'patch', 'create'].includes(info.verb)) throw methodNotAllowed();
    if (info.subresource === '' && info.name === '' && info.verb === 'get') throw methodNotAllowed();
    const handler = handlers[info.verb];
    if (!handler || !scope.verbs.has(info.verb)) throw methodNotAllowed();
    await handler(this.input(req, res, ctx, query, scope, info, watchPath));
  }

  /** A connect subresource (pods/proxy): any subpath, every verb it declares (and OPTIONS, as kube routes it). */
  private async connect(req: IncomingMessage, res: ServerResponse, ctx: RequestContext, query: URLSearchParams, scope: ResourceScope, info: RequestInfo): Promise<void> {
    if (info.name === '' || (scope.namespaced && info.namespace === '') || (!scope.namespaced && info.namespace !== '')) throw newPathNotFound();
    if (!scope.verbs.has(info.verb) && info.verb !== 'options') throw methodNotAllowed();
    await connectHandler(this.input(req, res, ctx, query, scope, info, false));
  }

  private input(req: IncomingMessage, res: ServerResponse, ctx: RequestContext, query: URLSearchParams, scope: ResourceScope, info: RequestInfo, watchPath: boolean): HandlerInput {
    return {
      req,
      res,
      query,
      ctx: info === ctx.requestInfo ? ctx : { ...ctx, requestInfo: info },
      scope,
      admission: this.admission,
      minRequestTimeoutSeconds: this.options.minRequestTimeoutSeconds,
      shutdown: ctx.shutdownSignal ?? this.options.shutdown,
      watchPath,
      watchList: this.options.watchList ?? false,
      log: this.options.log,
      ...(this.options.metrics ? { metrics: this.options.metrics } : {}),
    };
  }
}
