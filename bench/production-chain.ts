/**
 * The pieces of a production request chain that benchmarks set up: a client CA with an admin
 * (system:masters) and a user certificate, the user's RoleBinding to `edit`, an audit policy at
 * level Metadata, ValidatingAdmissionPolicies and their bindings, and the flags of a server that
 * runs them all against those of one that runs none (anonymous, AlwaysAllow, no audit, no
 * admission plugins). Shared by security, audit, admission and write-path.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate } from '../internal/server/pki.js';
import { defaultOnPlugins } from '../internal/admission/plugins/registry.js';
import { callOk, newClient, serverFailure, type Client } from './client.js';

/** A client certificate and key (PEM). */
export interface ClientCert {
  readonly cert: string;
  readonly key: string;
}

/** The client CA written to a file, and two clients it signed. */
export interface ClientPki {
  readonly caFile: string;
  /** CN bench-admin in system:masters: allowed before any authorizer is asked. */
  readonly admin: ClientCert;
  /** CN bench-user in group benchWriters: allowed only by what RBAC grants the group. */
  readonly user: ClientCert;
}

/** The group the user certificate carries, which bindEdit grants `edit`. */
export const benchWriters = 'bench-writers';

/** Makes a client CA in dir (client-ca.crt) and issues the admin and user certificates. */
export async function clientPki(dir: string): Promise<ClientPki> {
  const ca = await createCertificateAuthority('bench-client-ca');
  const caFile = join(dir, 'client-ca.crt');
  await writeFile(caFile, ca.certPem);
  const admin = await issueCertificate(ca, { commonName: 'bench-admin', organizations: ['system:masters'], usage: 'client' });
  const user = await issueCertificate(ca, { commonName: 'bench-user', organizations: [benchWriters], usage: 'client' });
  return { caFile, admin, user };
}

/** The authentication and authorization flags of a secured server: client certificates, Node,RBAC, no anonymous requests. */
export function securedFlags(pki: ClientPki): string[] {
  return [`--client-ca-file=${pki.caFile}`, '--authorization-mode=Node,RBAC', '--anonymous-auth=false'];
}

/** An audit policy logging every request at level Metadata. */
export const metadataAuditPolicy = ['apiVersion: audit.k8s.io/v1', 'kind: Policy', 'rules:', '- level: Metadata', ''].join('\n');

/** Writes the Metadata policy into dir and returns the audit flags (json log file, kube's blocking mode) and the log's path. */
export async function auditFlags(dir: string): Promise<{ flags: string[]; logFile: string }> {
  const policyFile = join(dir, 'audit-policy.yaml');
  const logFile = join(dir, 'audit.log');
  await writeFile(policyFile, metadataAuditPolicy);
  return { flags: [`--audit-policy-file=${policyFile}`, `--audit-log-path=${logFile}`], logFile };
}

/** The flag that turns every default admission plugin off: an empty chain. */
export function emptyAdmissionFlag(): string {
  return `--disable-admission-plugins=${[...defaultOnPlugins].join(',')}`;
}

/** Binds benchWriters to the ClusterRole `edit` in namespace (AlreadyExists is fine). */
export async function bindEdit(admin: Client, namespace: string): Promise<void> {
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'bench-writers-edit' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: benchWriters }],
  };
  const r = await admin.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, binding);
  if (r.status !== 201 && r.status !== 409) throw serverFailure('POST', 'rolebindings', r.status, r.body);
}

/** Waits until user may GET path (RBAC follows its bindings through informers, so a new binding takes a moment). */
export async function awaitAllowed(server: { port: number; ca: string }, user: ClientCert, path: string): Promise<void> {
  const client = newClient(server.port, server.ca, 1, user);
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await client.call('GET', path);
      if (r.status === 200) return;
      if (Date.now() > deadline) throw serverFailure('GET', path, r.status, r.body);
      await new Promise((res) => setTimeout(res, 100));
    }
  } finally {
    client.close();
  }
}

/** Creates obj in collection unless an object of its name is there. */
export async function ensureObject(client: Client, collection: string, obj: { metadata: { name: string } }): Promise<void> {
  if ((await client.call('GET', `${collection}/${obj.metadata.name}`)).status === 404) await callOk(client, 'POST', collection, obj);
}

/** The collections of ValidatingAdmissionPolicies and their bindings. */
export const policyCollection = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
export const policyBindingCollection = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

/** A ValidatingAdmissionPolicy (failurePolicy Fail) running one CEL expression on CREATE and UPDATE of a core/v1 resource. */
export function validatingPolicy(name: string, resource: string, expression: string, message: string): { metadata: { name: string } } & Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [resource] }] },
      validations: [{ expression, message }],
    },
  };
}

/** The binding (action Deny) of policy name, to the namespaces carrying namespaceLabels when given, else everywhere. */
export function policyBinding(name: string, namespaceLabels?: Record<string, string>): { metadata: { name: string } } & Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName: name,
      validationActions: ['Deny'],
      ...(namespaceLabels ? { matchResources: { namespaceSelector: { matchLabels: namespaceLabels } } } : {}),
    },
  };
}
