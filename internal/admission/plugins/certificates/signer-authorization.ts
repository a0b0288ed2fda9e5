/**
 * kube's certificates.IsAuthorizedForSignerName: may the user <verb> (approve, sign, attest) for a
 * signer? Asked as the resource "signers" of certificates.k8s.io named by the signer name, then by
 * the wildcard of its domain ("example.com/*"). An authorizer error counts as no.
 */
import type { Authorizer, AuthorizationAttributes } from '../../../authz/interface.js';
import type { UserInfo } from '../../../request/context.js';

function signerAttributes(user: UserInfo, verb: string, name: string): AuthorizationAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace: '',
    apiGroup: 'certificates.k8s.io',
    apiVersion: '*',
    resource: 'signers',
    subresource: '',
    name,
  };
}

async function allowed(authorizer: Authorizer, attrs: AuthorizationAttributes): Promise<boolean> {
  try {
    return (await authorizer.authorize(attrs)).decision === 'Allow';
  } catch {
    return false;
  }
}

/** Whether user may verb for signerName, exactly or through "<domain>/*". */
export async function isAuthorizedForSignerName(authorizer: Authorizer, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  if (await allowed(authorizer, signerAttributes(user, verb, signerName))) return true;
  const domain = signerName.split('/')[0] ?? '';
  return await allowed(authorizer, signerAttributes(user, verb, `${domain}/*`));
}
