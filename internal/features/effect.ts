/**
 * Which gates change what Capstan does. kube-apiserver accepts every gate of kube 1.33, those of
 * the kubelet, scheduler and controller manager included, and so does Capstan; a gate that is set
 * away from its default but changes nothing in Capstan (another component's, or one of a feature
 * Capstan does not implement) is named in a startup warning, so that no value is taken silently.
 */
import { knownFeatureGates, type FeatureGateSet } from './gates.js';

/** The gates Capstan reads, each with what it switches (README "Feature gates" lists the same). */
export const capstanFeatureGates: Readonly<Record<string, string>> = {
  AllAlpha: 'every alpha gate not set explicitly',
  AllBeta: 'every beta gate not set explicitly',
  APIResponseCompression: 'gzip of resource responses of 128 KiB and more when the client accepts it',
  WatchList: 'sendInitialEvents on watches (refused when off), and watches from "" or "0" served as watch lists',
  ConsistentListFromCache: 'lists at the most recent version served from the watch cache rather than etcd',
  StorageVersionHash: 'storageVersionHash in the discovery resource lists',
  APIServerIdentity: 'the kube-apiserver-<hash> identity Lease in kube-system and the collection of lapsed ones',
  PodTopologyLabelsAdmission: 'the PodTopologyLabels admission plugin copying topology labels from the node to bound pods',
  LoggingAlphaOptions: '--log-text-split-stream, --log-json-split-stream and their --log-*-info-buffer-size flags',
  LoggingBetaOptions: '--logging-format=json',
  RemoteRequestHeaderUID: 'X-Remote-Uid on requests proxied to extension API servers',
  AllowParsingUserUIDFromCertAuth: 'the user UID read from a client certificate\'s subject (OID 1.3.6.1.4.1.57683.2)',
  PodLevelResources: 'spec.resources of pods (dropped on write while off, unless the stored pod has it)',
  OrderedNamespaceDeletion: 'pods deleted first when a namespace is deleted, the rest only once no pod remains',
  KMSv1: 'the message refusing KMS v1 providers in --encryption-provider-config (off: kube\'s; on: Capstan has no KMS v1)',
};

/** The startup warning for gates set away from their defaults that change nothing in Capstan; empty when there are none. */
export function gatesWithoutEffect(gates: FeatureGateSet): string[] {
  const ignored: string[] = [];
  for (const [name, spec] of Object.entries(knownFeatureGates)) {
    if (capstanFeatureGates[name] !== undefined || !gates.explicitlySet(name)) continue;
    const value = gates.enabled(name);
    if (value !== spec.default) ignored.push(`${name}=${value}`);
  }
  if (ignored.length === 0) return [];
  return [`Feature gates set away from their defaults that change nothing in Capstan (they concern the kubelet, scheduler, controller manager or features Capstan does not implement): ${ignored.join(',')}`];
}

/**
 * Values of API server gates that Capstan cannot honour: the feature is not built, or Capstan
 * always behaves as the gate's default and cannot be switched. Named explicitly in --feature-gates
 * they are refused, so that a server never starts without what its operator asked for; set only
 * through AllAlpha or AllBeta they are named in the startup warning like the other gates.
 */
export const unsupportedGateValues: Readonly<Record<string, { readonly value: boolean; readonly why: string }>> = {
  MutatingAdmissionPolicy: { value: true, why: 'the CEL mutations of MutatingAdmissionPolicies are not implemented' },
  CBORServingAndStorage: { value: true, why: 'CBOR is neither served nor stored' },
  StorageVersionAPI: { value: true, why: 'the storage version manager that fills StorageVersions is not implemented' },
  CoordinatedLeaderElection: { value: true, why: 'the leader election coordinator (LeaseCandidates) is not implemented' },
  ExternalServiceAccountTokenSigner: { value: true, why: 'service account tokens are signed with --service-account-signing-key-file only' },
  AllowUnsafeMalformedObjectDeletion: { value: true, why: 'the ignoreStoreReadErrorWithClusterBreakingPotential delete option is not implemented' },
  AuthorizeWithSelectors: { value: false, why: 'the authorizers always receive field and label selectors' },
  AuthorizeNodeWithSelectors: { value: false, why: 'the Node authorizer always limits nodes to their own pods by field selector' },
};

/** Refusals (kube-style flag errors) for gates the flag names explicitly with a value Capstan cannot honour. */
export function refusedGateValues(explicit: ReadonlyMap<string, boolean>): string[] {
  const out: string[] = [];
  for (const [name, value] of explicit) {
    const u = unsupportedGateValues[name];
    if (u && u.value === value) out.push(`feature gate ${name}=${value} is not supported by Capstan: ${u.why}`);
  }
  return out;
}
