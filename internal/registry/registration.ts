/**
 * Registration: how a resource joins the API. A resource module returns one registration per
 * group version it is served in; the endpoint installer takes kind, names and verbs from the
 * generated API data (api/gen/resources.ts) and the behaviour from here.
 */
import type { KubeletClient } from '../kubeletclient/interface.js';
import type { FeatureGates } from '../features/interface.js';
import type { KubeObject } from '../../api/meta/types.js';
import type { Storage } from '../storage/interface.js';
import type { BuiltAuthentication } from '../authn/build.js';
import type { BuiltAuthorization } from '../authz/build.js';
import type { ServiceAccountTokenConfig } from '../serviceaccount/config.js';
import type { RestStorage } from './interface.js';
import type { SelectableFields } from './generic/strategy.js';
import type { StoreSettings } from './generic/store.js';

/**
 * Converts between the stored (hub) form of a resource and one served version. Both directions
 * return new objects and never mutate their input; apiVersion and kind are set by the caller.
 */
export interface VersionConversion {
  toExternal(stored: KubeObject): KubeObject;
  toInternal(external: KubeObject): KubeObject;
}

/** One resource in one group version. */
export interface ResourceRegistration {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
  /** The resource's storage; the verbs it implements are the verbs served. */
  readonly main: RestStorage;
  /** Subresources by name (status, scale, finalize, ...). */
  readonly subresources: Readonly<Record<string, RestStorage>>;
  /** Field selectors the resource supports (checked before a list or watch reaches the store). */
  readonly selectableFields: SelectableFields;
  /** Present when the stored form is another version (events.k8s.io/v1 over core/v1 events). */
  readonly conversion?: VersionConversion;
  /**
   * kube's defaulting for this version (SetDefaults_*): fills in what clients read back, on the
   * decoded request object before it is converted and stored. Mutates obj; must be idempotent.
   */
  readonly defaulter?: (obj: KubeObject) => void;
  /** With a conversion: the apiVersion and kind objects are stored as (defaults to v1 and the same kind). */
  readonly storedAs?: { readonly apiVersion: string; readonly kind: string };
}

/** What a resource module needs to build its stores. */
export interface RegistryDeps {
  readonly storage: Storage;
  /** --service-cluster-ip-range: where Service cluster IPs come from. */
  readonly serviceClusterIPRange: string;
  /** --service-node-port-range: where Service node ports come from (kube's 30000-32767 when absent). */
  readonly serviceNodePortRange?: string;
  /**
   * The server's authenticators and authorizers, for resources that use them (the review APIs,
   * RBAC's escalation check). Filled in by the server once they are built, after the registrations
   * (the authorizers read the registrations' storage): read it when a request arrives, never while
   * building. Absent in unit tests of unrelated resources.
   */
  readonly security?: SecurityHandles;
  /** Service account token issuing; absent when the server issues none (no serviceaccounts/token). */
  readonly serviceAccountTokens?: ServiceAccountTokenConfig;
  /**
   * Any served resource's storage (stored form), for resources that read others while serving a
   * request (the token subresource reads pods, secrets and nodes). Late-bound like security: call
   * it when a request arrives, never while building.
   */
  readonly storageOf?: (group: string, resource: string, subresource?: string) => RestStorage | undefined;
  /** Settings every generic store gets (--delete-collection-workers); absent: kube's defaults. */
  readonly storeSettings?: StoreSettings;
  /** --feature-gates (absent: kube 1.33's defaults): strategies drop the fields of disabled alpha features. */
  readonly featureGates?: FeatureGates;
  /** --event-ttl in seconds: how long events (core/v1 and events.k8s.io/v1) live in storage. */
  readonly eventTTLSeconds?: number;
  /** --max-connection-bytes-per-sec: the throttle of pods/proxy and services/proxy (0: none). */
  readonly proxyBytesPerSec?: number;
  /** The kubelets behind pods/log, exec, attach, portforward and nodes/proxy (--kubelet-* flags). */
  readonly kubeletClient?: KubeletClient;
}

/** Late-bound security components (see RegistryDeps.security). */
export interface SecurityHandles {
  authentication?: BuiltAuthentication;
  authorization?: BuiltAuthorization;
}

/** A resource module: builds its registrations. */
export type ResourceModule = (deps: RegistryDeps) => ResourceRegistration[];
