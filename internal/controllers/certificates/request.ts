/**
 * A CertificateSigningRequest's PKCS#10 request as the kcm loops read it: subject (CN, O), SANs,
 * public key, with the signature checked, plus kube's per-signer checks of what a request for the
 * kubelet client, kubelet serving and kube-apiserver client signers may contain (their messages).
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { KubeObject } from '../../../api/meta/types.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** The parsed request. */
export interface ParsedRequest {
  readonly csr: x509.Pkcs10CertificateRequest;
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ips: readonly string[];
  readonly emails: readonly string[];
  readonly uris: readonly string[];
}

/** Parses spec.request (base64 of a PEM CERTIFICATE REQUEST); throws when it is not one. */
export function parseRequest(obj: KubeObject): ParsedRequest {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const pem = Buffer.from(String(spec.request ?? ''), 'base64').toString('utf8');
  const block = /-----BEGIN CERTIFICATE REQUEST-----[\s\S]*?-----END CERTIFICATE REQUEST-----/.exec(pem);
  if (!block) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const csr = new x509.Pkcs10CertificateRequest(block[0]);
  const san = csr.extensions.find((e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension);
  const names = san?.names.items ?? [];
  const of = (t: string): string[] => names.filter((n) => n.type === t).map((n) => n.value);
  return {
    csr,
    commonName: csr.subjectName.getField('CN')[0] ?? '',
    organizations: csr.subjectName.getField('O'),
    dnsNames: of('dns'),
    ips: of('ip'),
    emails: of('email'),
    uris: of('url'),
  };
}

/** spec.usages as a set. */
export function usagesOf(obj: KubeObject): Set<string> {
  return new Set(((obj.spec as Record<string, unknown> | undefined)?.usages ?? []) as string[]);
}

function onlyUsages(usages: Set<string>, allowed: readonly string[], required: readonly string[]): string | undefined {
  const extra = [...usages].filter((u) => !allowed.includes(u));
  const missing = required.filter((u) => !usages.has(u));
  if (extra.length > 0 || missing.length > 0) return `usages did not match [${allowed.join(' ')}]: ${[...usages].join(', ')}`;
  return undefined;
}

/** kube's ValidateKubeletClientCSR: why the request is not a kubelet client certificate request. */
export function kubeletClientProblem(req: ParsedRequest, usages: Set<string>): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emails.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ips.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  return onlyUsages(usages, ['key encipherment', 'digital signature', 'client auth'], ['client auth']);
}

/** kube's ValidateKubeletServingCSR. */
export function kubeletServingProblem(req: ParsedRequest, usages: Set<string>): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (req.dnsNames.length === 0 && req.ips.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emails.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  return onlyUsages(usages, ['key encipherment', 'digital signature', 'server auth'], ['server auth']);
}

/** The kube-apiserver-client signer: client certificates only. */
export function apiserverClientProblem(_req: ParsedRequest, usages: Set<string>): string | undefined {
  const bad = [...usages].filter((u) => !['client auth', 'digital signature', 'key encipherment'].includes(u));
  if (bad.length > 0) return `invalid usage for client certificate: ${bad[0]}`;
  if (!usages.has('client auth')) return 'missing required usage for client certificate: client auth';
  return undefined;
}

/** The checks of each signer kcm signs for. */
export const signerChecks: Readonly<Record<string, (req: ParsedRequest, usages: Set<string>) => string | undefined>> = {
  'kubernetes.io/kube-apiserver-client-kubelet': kubeletClientProblem,
  'kubernetes.io/kubelet-serving': kubeletServingProblem,
  'kubernetes.io/kube-apiserver-client': apiserverClientProblem,
};

/** The condition of type that is True, if any. */
export function hasCondition(obj: KubeObject, type: string): boolean {
  const conds = (((obj.status ?? {}) as Record<string, unknown>).conditions ?? []) as Record<string, unknown>[];
  return conds.some((c) => c.type === type && (c.status ?? 'True') === 'True');
}
