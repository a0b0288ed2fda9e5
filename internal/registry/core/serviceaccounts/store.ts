/**
 * The serviceaccounts resource (core/v1), stored under /serviceaccounts/<namespace>/<name>, and its
 * token subresource (authentication.k8s.io/v1 TokenRequest), served when the server issues
 * service account tokens (--service-account-issuer with --service-account-signing-key-file).
 */
import type { ResourceModule } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import type { RestStorage } from '../../interface.js';
import { serviceAccountStrategy } from './strategy.js';
import { TokenRequestStorage } from './token.js';

/** Builds the serviceaccounts registration. */
export const serviceAccountsModule: ResourceModule = (deps) => {
  const store = new GenericStore(
    { group: '', resource: 'serviceaccounts', kind: 'ServiceAccount', keyPrefix: '/serviceaccounts' },
    serviceAccountStrategy,
    deps.storage,
    {},
    deps.storeSettings,
  );
  const subresources: Record<string, RestStorage> = {};
  if (deps.serviceAccountTokens && deps.storageOf) subresources.token = new TokenRequestStorage(store, deps.serviceAccountTokens, deps.storageOf);
  return [
    {
      group: '',
      version: 'v1',
      resource: 'serviceaccounts',
      namespaced: true,
      main: store,
      subresources,
      selectableFields: serviceAccountStrategy.selectableFields,
    },
  ];
};
