/**
 * Test support for static bearer tokens: kube-apiserver's --token-auth-file written for a list of
 * users, so that tests authenticate the way an operator's users would. Call tokenAuthFileFlag from
 * useServer's flags function (run in before()), so the file exists before the server starts.
 */
import { tempDir, writeTemp } from './client-certs.js';

/** One record of a token file: the token and the user it authenticates as. */
export interface StaticTokenUser {
  readonly token: string;
  readonly name: string;
  readonly uid: string;
  /** Written as the quoted fourth column; omitted when empty (the user has no groups). */
  readonly groups?: readonly string[];
}

/** The CSV text of a token file for users (`token,user,uid,"group1,group2"` per line). */
export function tokenFileText(users: readonly StaticTokenUser[]): string {
  return users.map((u) => [u.token, u.name, u.uid, ...(u.groups?.length ? [`"${u.groups.join(',')}"`] : [])].join(',') + '\n').join('');
}

/** Writes a token file for users into a fresh temporary directory (removed at exit); returns its --token-auth-file flag. */
export async function tokenAuthFileFlag(users: readonly StaticTokenUser[]): Promise<string> {
  return `--token-auth-file=${await writeTemp(await tempDir('capstan-tokens-'), 'tokens.csv', tokenFileText(users))}`;
}

/** The Authorization header presenting token. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
