/**
 * The static rules every node gets through the Node authorizer (kube 1.33's
 * bootstrappolicy.NodeRules with its default feature gates): API access checks, services, its Node
 * and Pod writes, events, CSRs, leases, CSI objects, service account tokens, runtime classes.
 * Requests for secrets, config maps, claims, volumes, attachments, leases, CSINodes, nodes and pods
 * are decided by the graph and name checks first (authorizer.ts); these rules cover the rest.
 */
import type { PolicyRule } from '../rules.js';

const read = ['get', 'list', 'watch'];

/** The rules, in kube's order. Never mutate. */
export const nodeRules: readonly PolicyRule[] = [
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] },
  { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews', 'localsubjectaccessreviews'] },
  { verbs: read, apiGroups: [''], resources: ['services'] },
  { verbs: ['create', 'get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes/status'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes'] },
  { verbs: ['create', 'update', 'patch'], apiGroups: [''], resources: ['events'] },
  { verbs: read, apiGroups: [''], resources: ['pods'] },
  { verbs: ['create', 'delete'], apiGroups: [''], resources: ['pods'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['pods/status'] },
  { verbs: ['create'], apiGroups: [''], resources: ['pods/eviction'] },
  { verbs: read, apiGroups: [''], resources: ['secrets', 'configmaps'] },
  { verbs: ['get'], apiGroups: [''], resources: ['persistentvolumeclaims', 'persistentvolumes'] },
  { verbs: ['get'], apiGroups: [''], resources: ['endpoints'] },
  { verbs: ['create', 'get', 'list', 'watch'], apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'] },
  { verbs: ['get', 'create', 'update', 'patch', 'delete'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] },
  { verbs: ['get'], apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'] },
  { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] },
  { verbs: ['get', 'update', 'patch'], apiGroups: [''], resources: ['persistentvolumeclaims/status'] },
  { verbs: ['get', 'watch', 'list'], apiGroups: ['storage.k8s.io'], resources: ['csidrivers'] },
  { verbs: ['get', 'create', 'update', 'patch', 'delete'], apiGroups: ['storage.k8s.io'], resources: ['csinodes'] },
  { verbs: read, apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'] },
];
