/**
 * The Node authorizer (kube's NodeAuthorizer, with AuthorizeNodeWithSelectors as in 1.33): for a
 * user named system:node:<name> in group system:nodes, and nobody else (others get no opinion).
 * Secrets, config maps, PVCs, PVs, ResourceClaims, volume attachments and resource slices are
 * readable only by name and only when the graph relates them to the node; service account tokens
 * only for its pods' accounts; leases and CSINodes only its own; nodes: read only its own Node,
 * create, update and patch (NodeRestriction admission narrows those); pods: get those bound to it,
 * list and watch with spec.nodeName=<node>, create and delete mirror pods, update their status,
 * evict. Everything else is the static node rules. Denials carry kube's reasons.
 */
import type { FieldTerm } from '../../selectors/fields.js';
import type { Logger } from '../../observability/logging.js';
import type { UserInfo } from '../../request/context.js';
import type { AuthorizationAttributes, AuthorizationDecision, RuleAuthorizer, RulesResult, SelectorAttributes } from '../interface.js';
import { rulesAllow } from '../rules.js';
import type { Graph, VertexType } from './graph.js';
import { nodeRules } from './rules.js';

/** The prefix of a node's user name. */
export const nodeUserPrefix = 'system:node:';
/** The group every node is in. */
export const nodesGroup = 'system:nodes';
/** The namespace of node leases. */
export const nodeLeaseNamespace = 'kube-node-lease';

/** kube's NodeIdentity: the node name of a node user ('' for an unnamed one), or undefined for anyone else. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(nodeUserPrefix) || !user.groups.includes(nodesGroup)) return undefined;
  return user.name.slice(nodeUserPrefix.length);
}

const allow: AuthorizationDecision = { decision: 'Allow', reason: '' };
const noOpinion: AuthorizationDecision = { decision: 'NoOpinion', reason: '' };
const deny = (reason: string): AuthorizationDecision => ({ decision: 'NoOpinion', reason });
const complete: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
const unsupported: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };

/** Whether an `=` term of the field selector requires field to be value (a selector that did not parse requires nothing). */
function selectorRequires(selector: SelectorAttributes<FieldTerm> | undefined, field: string, value: string): boolean {
  if (!selector || selector.parseError) return false;
  return selector.requirements.some((t) => t.field === field && t.operator === '=' && t.value === value);
}

/** --authorization-mode=Node over a graph kept by GraphPopulator. Synchronous. */
export class NodeAuthorizer implements RuleAuthorizer {
  readonly name = 'Node';

  constructor(
    private readonly graph: Graph,
    private readonly log?: Logger,
  ) {}

  rulesFor(user: UserInfo, _namespace: string): RulesResult {
    return nodeIdentity(user) === undefined ? complete : unsupported;
  }

  authorize(a: AuthorizationAttributes): AuthorizationDecision {
    const node = nodeIdentity(a.user);
    if (node === undefined) return noOpinion;
    if (node === '') return deny(`unknown node for user ${JSON.stringify(a.user.name)}`);
    if (a.isResourceRequest) {
      switch (`${a.apiGroup}/${a.resource}`) {
        case '/secrets':
          return this.readNamespaced(node, 'secret', a);
        case '/configmaps':
          return this.readNamespaced(node, 'configmap', a);
        case '/persistentvolumeclaims':
          return a.subresource === 'status' ? this.statusUpdate(node, 'pvc', a) : this.get(node, 'pvc', a);
        case '/persistentvolumes':
          return this.get(node, 'pv', a);
        case 'resource.k8s.io/resourceclaims':
          return this.get(node, 'resourceclaim', a);
        case 'storage.k8s.io/volumeattachments':
          return this.get(node, 'volumeattachment', a);
        case '/serviceaccounts':
          return this.createToken(node, a);
        case 'coordination.k8s.io/leases':
          return this.ownObject(node, a, 'a node lease', `can only access leases in the ${JSON.stringify(nodeLeaseNamespace)} system namespace`);
        case 'storage.k8s.io/csinodes':
          return this.ownObject(node, a, 'a CSINode');
        case 'resource.k8s.io/resourceslices':
          return this.resourceSlice(node, a);
        case '/nodes':
          return this.nodeObject(node, a);
        case '/pods':
          return this.pod(node, a);
      }
    }
    return rulesAllow(a, nodeRules) ? allow : noOpinion;
  }

  private related(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationDecision {
    if (!a.name) return deny('No Object name found');
    const path = this.graph.hasPathFrom(node, type, a.namespace, a.name);
    if (path.found) return allow;
    this.log?.v(2, `NODE DENY: ${path.detail ?? ''}`);
    return deny(`no relationship found between node '${node}' and this object`);
  }

  private readNamespaced(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationDecision {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return deny('can only read resources of this type');
    if (a.subresource) return deny('cannot read subresource');
    if (!a.namespace) return deny('can only read namespaced object of this type');
    return this.related(node, type, a);
  }

  private get(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationDecision {
    if (a.verb !== 'get') return deny('can only get individual resources of this type');
    if (a.subresource) return deny('cannot get subresource');
    return this.related(node, type, a);
  }

  private statusUpdate(node: string, type: VertexType, a: AuthorizationAttributes): AuthorizationDecision {
    if (a.verb !== 'update' && a.verb !== 'patch') return deny('can only get/update/patch this type');
    return this.related(node, type, a);
  }

  private createToken(node: string, a: AuthorizationAttributes): AuthorizationDecision {
    if (a.verb !== 'create' || !a.name) return deny('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return deny('can only create token subresource of serviceaccount');
    return this.related(node, 'serviceaccount', a);
  }

  /** Leases (in kube-node-lease) and CSINodes: get, create, update, patch and delete the node's own. */
  private ownObject(node: string, a: AuthorizationAttributes, what: string, namespaceReason?: string): AuthorizationDecision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return deny(`can only get, create, update, patch, or delete ${what}`);
    if (namespaceReason && a.namespace !== nodeLeaseNamespace) return deny(namespaceReason);
    if (!namespaceReason && a.subresource) return deny('cannot authorize CSINode subresources');
    // The name is unknown on create; NodeRestriction admission checks it there.
    if (a.verb !== 'create' && a.name !== node) {
      return deny(namespaceReason ? 'can only access node lease with the same name as the requesting node' : 'can only access CSINode with the same name as the requesting node');
    }
    return allow;
  }

  private resourceSlice(node: string, a: AuthorizationAttributes): AuthorizationDecision {
    if (a.subresource) return deny('cannot authorize ResourceSlice subresources');
    switch (a.verb) {
      case 'create':
        return allow;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        return this.related(node, 'resourceslice', a);
      case 'watch':
      case 'list':
      case 'deletecollection':
        if (selectorRequires(a.fieldSelector, 'spec.nodeName', node)) return allow;
        return deny('can only list/watch/deletecollection resourceslices with nodeName field selector');
      default:
        return deny('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
    }
  }

  private nodeObject(node: string, a: AuthorizationAttributes): AuthorizationDecision {
    if (a.subresource === '') {
      if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return allow;
      if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
        // By name, not the graph: a kubelet reads its Node before creating it.
        if (a.name === node) return allow;
        if (a.name === '') return deny(`node '${node}' cannot read all nodes, only its own Node object`);
        return deny(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return allow;
    }
    return noOpinion;
  }

  private pod(node: string, a: AuthorizationAttributes): AuthorizationDecision {
    switch (a.subresource) {
      case '':
        if (a.verb === 'get') return this.get(node, 'pod', a);
        if (a.verb === 'list' || a.verb === 'watch') {
          if (selectorRequires(a.fieldSelector, 'spec.nodeName', node)) return allow;
          if (a.name) return this.related(node, 'pod', a);
          return deny('can only list/watch pods with spec.nodeName field selector');
        }
        // Mirror pods; NodeRestriction admission keeps them to the node's own.
        if (a.verb === 'create' || a.verb === 'delete') return allow;
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return allow;
        break;
      case 'eviction':
        if (a.verb === 'create') return allow;
        break;
    }
    return noOpinion;
  }
}
