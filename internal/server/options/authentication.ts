/**
 * The authentication flags (kube-apiserver's BuiltInAuthenticationOptions): which authenticators
 * run and how. Each method's flags are validated here into AuthenticationOptions; the
 * authenticators themselves are built by internal/authn/build.ts.
 */
import { boolFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';
import { stringSliceFlag } from './string-slice.js';

/** The front proxy (--requestheader-*): present when --requestheader-client-ca-file is set. */
export interface RequestHeaderOptions {
  /** --requestheader-client-ca-file: the CAs a proxy's client certificate must chain to. */
  readonly clientCAFile: string;
  /** --requestheader-allowed-names: common names a proxy certificate may have; empty is any. */
  readonly allowedNames: readonly string[];
  /** --requestheader-username-headers: the first of these with a value names the user. */
  readonly usernameHeaders: readonly string[];
  /** --requestheader-uid-headers: the first of these with a value is the user's UID. */
  readonly uidHeaders: readonly string[];
  /** --requestheader-group-headers: every value of these is a group. */
  readonly groupHeaders: readonly string[];
  /** --requestheader-extra-headers-prefix: headers with these prefixes are extras. */
  readonly extraHeaderPrefixes: readonly string[];
}

/** Validated authentication options. */
export interface AuthenticationOptions {
  /** --anonymous-auth: requests no authenticator claims are system:anonymous (else 401). */
  readonly anonymous: boolean;
  /** --client-ca-file: client certificates chaining to these CAs name the user (CN) and groups (O). */
  readonly clientCAFile?: string;
  /** The front proxy (--requestheader-*), when on. */
  readonly requestHeader?: RequestHeaderOptions;
  /** --token-auth-file: a CSV of static bearer tokens. */
  readonly tokenAuthFile?: string;
  /** --enable-bootstrap-token-auth: kube-system bootstrap-token Secrets are bearer tokens. */
  readonly bootstrapTokenAuth?: boolean;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly authentication?: AuthenticationOptions;
  }
}

/** The defaults of every authentication flag. */
export const defaultAuthenticationOptions: AuthenticationOptions = { anonymous: true };

const requestHeaderLists = [
  ['requestheader-allowed-names', 'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.'],
  ['requestheader-extra-headers-prefix', 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.'],
  ['requestheader-group-headers', 'List of request headers to inspect for groups. X-Remote-Group is suggested.'],
  ['requestheader-uid-headers', 'List of request headers to inspect for UIDs. X-Remote-Uid is suggested.'],
  ['requestheader-username-headers', 'List of request headers to inspect for usernames. X-Remote-User is common.'],
] as const;

/** A string-slice flag whose entries must not be blank (kube's checkForWhiteSpaceOnly). */
function headerList(p: Record<string, unknown>, name: string): string[] {
  const list = stringSliceFlag(name, p[name]);
  if (list.some((h) => h.trim().length === 0)) throw new FlagError(`empty value in ${JSON.stringify(name)}`);
  return list;
}

function optionalFile(p: Record<string, unknown>, name: string): string | undefined {
  const v = p[name];
  return v === undefined || v === '' ? undefined : String(v);
}

function validateRequestHeader(p: Record<string, unknown>): RequestHeaderOptions | undefined {
  const lists = Object.fromEntries(requestHeaderLists.map(([name]) => [name, headerList(p, name)])) as Record<(typeof requestHeaderLists)[number][0], string[]>;
  const clientCAFile = optionalFile(p, 'requestheader-client-ca-file');
  if (clientCAFile === undefined) {
    // kube publishes these for aggregated servers even without a CA; here they would do nothing.
    const set = requestHeaderLists.find(([name]) => lists[name].length > 0);
    if (set) throw new FlagError(`--${set[0]} has no effect without --requestheader-client-ca-file: the front proxy is trusted only through its client certificate`);
    return undefined;
  }
  return {
    clientCAFile,
    allowedNames: lists['requestheader-allowed-names'],
    // Header names are trimmed, as kube's request-header authenticator trims them.
    usernameHeaders: lists['requestheader-username-headers'].map((h) => h.trim()),
    uidHeaders: lists['requestheader-uid-headers'].map((h) => h.trim()),
    groupHeaders: lists['requestheader-group-headers'].map((h) => h.trim()),
    extraHeaderPrefixes: lists['requestheader-extra-headers-prefix'].map((h) => h.trim()),
  };
}

/** The authentication flag group. */
export const authenticationFlags: FlagGroup<'authentication'> = {
  register(y) {
    y.option('anonymous-auth', {
      type: 'string',
      defaultDescription: 'true',
      describe:
        'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
    });
    y.option('client-ca-file', {
      type: 'string',
      describe:
        'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    });
    // No parser default: a bare flag would read as the default instead of true (false when absent).
    y.option('enable-bootstrap-token-auth', {
      type: 'string',
      describe: "Enable to allow secrets of type 'bootstrap.kubernetes.io/token' in the 'kube-system' namespace to be used for TLS bootstrapping authentication.",
    });
    y.option('requestheader-client-ca-file', {
      type: 'string',
      describe:
        'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization being already done for incoming requests.',
    });
    for (const [name, describe] of requestHeaderLists) y.option(name, { type: 'string', describe });
    y.option('token-auth-file', { type: 'string', describe: 'If set, the file that will be used to secure the secure port of the API server via token authentication.' });
  },
  validate(p) {
    const clientCAFile = optionalFile(p, 'client-ca-file');
    const requestHeader = validateRequestHeader(p);
    const tokenAuthFile = optionalFile(p, 'token-auth-file');
    const bootstrapTokenAuth = boolFlag('enable-bootstrap-token-auth', p['enable-bootstrap-token-auth']);
    return {
      authentication: {
        anonymous: boolFlag('anonymous-auth', p['anonymous-auth'], true),
        ...(clientCAFile ? { clientCAFile } : {}),
        ...(requestHeader ? { requestHeader } : {}),
        ...(tokenAuthFile ? { tokenAuthFile } : {}),
        ...(bootstrapTokenAuth ? { bootstrapTokenAuth } : {}),
      },
    };
  },
};
