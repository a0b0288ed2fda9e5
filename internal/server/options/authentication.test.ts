import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultAuthenticationOptions, type AuthenticationOptions } from './authentication.js';
import { parseFlags } from './flags.js';

function authn(...flags: string[]): AuthenticationOptions | string {
  const r = parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...flags], 'test');
  return r.kind === 'run' ? (r.options.authentication ?? defaultAuthenticationOptions) : (r.stderr ?? '');
}

/** The error a flag line is refused with ("" when it is accepted). */
function refusal(...flags: string[]): string {
  const r = authn(...flags);
  return typeof r === 'string' ? r : '';
}

describe('authentication flags', () => {
  it("have kube-apiserver's defaults: anonymous on, every other method off", () => {
    assert.deepEqual(authn(), { anonymous: true });
  });

  it('turn the methods on', () => {
    assert.deepEqual(
      authn(
        '--client-ca-file=/pki/ca.crt',
        '--token-auth-file=/pki/tokens.csv',
        '--enable-bootstrap-token-auth',
        '--requestheader-client-ca-file=/pki/front-proxy-ca.crt',
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-uid-headers=X-Remote-Uid',
        '--requestheader-group-headers=X-Remote-Group, X-Other-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      ),
      {
        anonymous: true,
        clientCAFile: '/pki/ca.crt',
        tokenAuthFile: '/pki/tokens.csv',
        bootstrapTokenAuth: true,
        requestHeader: {
          clientCAFile: '/pki/front-proxy-ca.crt',
          allowedNames: ['front-proxy-client'],
          usernameHeaders: ['X-Remote-User'],
          uidHeaders: ['X-Remote-Uid'],
          groupHeaders: ['X-Remote-Group', 'X-Other-Group'],
          extraHeaderPrefixes: ['X-Remote-Extra-'],
        },
      },
    );
    assert.deepEqual(authn('--enable-bootstrap-token-auth=false'), { anonymous: true });
  });

  it("refuses invalid values with kube's messages", () => {
    assert.match(refusal('--requestheader-client-ca-file=/ca', '--requestheader-username-headers=X-Remote-User, '), /empty value in "requestheader-username-headers"/);
    assert.match(refusal('--enable-bootstrap-token-auth=maybe'), /invalid argument "maybe" for "--enable-bootstrap-token-auth" flag/);
    assert.match(refusal('--requestheader-group-headers=a"b'), /bare " in non-quoted-field/);
  });

  it('refuses front-proxy headers without the front-proxy CA, which alone makes them trusted', () => {
    assert.match(refusal('--requestheader-username-headers=X-Remote-User'), /--requestheader-username-headers has no effect without --requestheader-client-ca-file/);
  });
});
