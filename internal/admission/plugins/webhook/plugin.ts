/**
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook: the admission plugins that call the
 * webhooks of Mutating- and ValidatingWebhookConfigurations (read from shared informers). A request
 * with no webhooks configured costs a check of the kind and a cached empty list.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { hasReason } from '../../../apierrors/status-error.js';
import { webhookAdmissionMetrics } from '../../../observability/webhook-admission-metrics.js';
import type { RestStorage } from '../../../registry/interface.js';
import { internalContext, type RequestContext } from '../../../request/context.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginDeps } from '../deps.js';
import { loadAuthenticationResolver } from './authentication.js';
import { WebhookCaller } from './caller.js';
import type { NamespaceLookup } from './matcher.js';
import { MutatingDispatcher } from './mutating-dispatcher.js';
import { isExemptAdmissionConfiguration } from './rules.js';
import { ServiceResolver } from './service-resolver.js';
import { HookSource } from './source.js';
import { ValidatingDispatcher } from './validating-dispatcher.js';
import { VersionedAttributes } from './versioned.js';

const group = 'admissionregistration.k8s.io';

/** Namespaces from the shared informer, or from storage when the informer has not seen one yet. */
function namespaceLookup(deps: AdmissionPluginDeps): NamespaceLookup {
  return async (name) => {
    const informer = deps.informers.get('', 'namespaces');
    if (!informer.hasSynced()) await informer.synced;
    const cached = informer.get(name);
    if (cached) return cached;
    const storage = deps.storageOf('', 'namespaces') as RestStorage | undefined;
    if (!storage?.get) return undefined;
    try {
      return (await storage.get(internalContext({ verb: 'get', resource: 'namespaces', name }), name, { resourceVersion: '' })) as KubeObject;
    } catch (err) {
      if (hasReason(err, 'NotFound')) return undefined;
      throw err;
    }
  };
}

interface Dispatcher {
  dispatch(hooks: ReturnType<HookSource['webhooks']>, va: VersionedAttributes, ctx: RequestContext): Promise<void>;
}

/** One webhook admission plugin (mutating or validating). */
export class WebhookAdmissionPlugin implements AdmissionPlugin {
  readonly admit?: (attrs: AdmissionAttributes, ctx: RequestContext) => Promise<void>;
  readonly validate?: (attrs: AdmissionAttributes, ctx: RequestContext) => Promise<void>;

  constructor(
    readonly name: string,
    mutating: boolean,
    private readonly source: HookSource,
    private readonly dispatcher: Dispatcher,
  ) {
    const run = (attrs: AdmissionAttributes, ctx: RequestContext) => this.dispatch(attrs, ctx);
    if (mutating) this.admit = run;
    else this.validate = run;
  }

  handles(_operation: AdmissionOperation): boolean {
    return true;
  }

  private async dispatch(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    if (isExemptAdmissionConfiguration(attrs.group, attrs.kind)) return;
    if (!this.source.synced() && !(await this.source.ready())) {
      throw admissionForbidden(attrs, 'not yet ready to handle request');
    }
    const hooks = this.source.webhooks();
    if (hooks.length === 0) return;
    await this.dispatcher.dispatch(hooks, new VersionedAttributes(attrs), ctx);
  }
}

/** Builds MutatingAdmissionWebhook (mutating) or ValidatingAdmissionWebhook from its configuration. */
export async function newWebhookPlugin(deps: AdmissionPluginDeps, config: unknown, mutating: boolean): Promise<WebhookAdmissionPlugin> {
  const auth = await loadAuthenticationResolver(config);
  const caller = new WebhookCaller(auth, new ServiceResolver(deps.informers));
  deps.shutdown.addEventListener('abort', () => caller.close(), { once: true });
  const metrics = webhookAdmissionMetrics(deps.metrics.registry);
  const namespaces = namespaceLookup(deps);
  const resource = mutating ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const source = new HookSource(deps.informers.get(group, resource));
  const dispatcher = mutating ? new MutatingDispatcher(caller, namespaces, metrics, deps.versionsOf, deps.authorizer) : new ValidatingDispatcher(caller, namespaces, metrics, deps.versionsOf, deps.authorizer);
  return new WebhookAdmissionPlugin(mutating ? 'MutatingAdmissionWebhook' : 'ValidatingAdmissionWebhook', mutating, source, dispatcher);
}
