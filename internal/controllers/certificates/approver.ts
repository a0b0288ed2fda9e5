/**
 * kube-controller-manager's csrapproving loop, run inside the API server: a pending
 * kubernetes.io/kube-apiserver-client-kubelet CSR whose request is a kubelet client certificate
 * request is approved when its requester may create certificatesigningrequests/selfnodeclient (a
 * node renewing its own certificate: CN equals the requester) or certificatesigningrequests/nodeclient
 * (bootstrap), as the server's authorizer answers for the requester recorded in the CSR's spec.
 * Anything else is left for someone else to approve or deny.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { Authorizer } from '../../authz/interface.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { ResourceClient } from '../resource-client.js';
import { WorkQueue } from '../work-queue.js';
import { hasCondition, kubeletClientProblem, parseRequest, usagesOf } from './request.js';

const recognizers = [
  { subresource: 'selfnodeclient', self: true, message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' },
  { subresource: 'nodeclient', self: false, message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
] as const;

/** The message of the recognizer that approves csr, or undefined (kcm's handle). */
export async function approvalFor(csr: KubeObject, authorizer: Authorizer): Promise<string | undefined> {
  const spec = (csr.spec ?? {}) as Record<string, unknown>;
  if (spec.signerName !== 'kubernetes.io/kube-apiserver-client-kubelet') return undefined;
  if (hasCondition(csr, 'Approved') || hasCondition(csr, 'Denied')) return undefined;
  let req;
  try {
    req = parseRequest(csr);
  } catch {
    return undefined;
  }
  if (kubeletClientProblem(req, usagesOf(csr)) !== undefined) return undefined;
  const username = String(spec.username ?? '');
  for (const r of recognizers) {
    if (r.self && req.commonName !== username) continue;
    const decision = await authorizer.authorize({
      user: {
        name: username,
        ...(typeof spec.uid === 'string' && spec.uid ? { uid: spec.uid } : {}),
        groups: (spec.groups ?? []) as string[],
        ...(spec.extra ? { extra: spec.extra as Record<string, string[]> } : {}),
      },
      verb: 'create',
      isResourceRequest: true,
      path: '',
      namespace: '',
      apiGroup: 'certificates.k8s.io',
      apiVersion: '*',
      resource: 'certificatesigningrequests',
      subresource: r.subresource,
      name: '',
    });
    if (decision.decision === 'Allow') return r.message;
  }
  return undefined;
}

/** The loop, for the in-server list (idle without an authorizer). */
export const csrApprovingController: InServerController = {
  name: 'certificatesigningrequest-approving-controller',
  controllerManagerAlias: 'csrapproving',
  start(deps) {
    const authorizer = deps.authorizer;
    const approval = deps.storageOf('certificates.k8s.io', 'certificatesigningrequests', 'approval');
    if (!authorizer || !approval) return () => undefined;
    const informer = deps.informers.get('certificates.k8s.io', 'certificatesigningrequests');
    const client = new ResourceClient(approval, 'certificates.k8s.io', 'certificatesigningrequests');
    const queue = new WorkQueue(
      async (name) => {
        const csr = informer.get(name);
        if (!csr) return;
        const message = await approvalFor(csr, authorizer());
        if (!message) return;
        try {
          await client.update(name, '', (current) => {
            if (hasCondition(current, 'Approved') || hasCondition(current, 'Denied')) return current;
            const status = (current.status ?? {}) as Record<string, unknown>;
            const conditions = [...((status.conditions ?? []) as unknown[])];
            const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
            conditions.push({ type: 'Approved', status: 'True', reason: 'AutoApproved', message, lastUpdateTime: now, lastTransitionTime: now });
            current.status = { ...status, conditions };
            return current;
          });
          deps.log.v(2, 'CSR approved', { csr: name, message });
        } catch (err) {
          if (hasReason(err, 'NotFound')) return;
          throw err;
        }
      },
      { onDrop: (name, err) => deps.log.warn(`csrapproving: approving ${name} failed: ${(err as Error).message}`) },
    );
    const enqueue = (csr: KubeObject): void => queue.add(csr.metadata.name ?? '');
    informer.addHandlers({ added: enqueue, updated: enqueue });
    return () => queue.stop();
  },
};
