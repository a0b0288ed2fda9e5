/**
 * Static bearer tokens (--token-auth-file): a CSV file of `token,user,uid[,"group1,group2"]`
 * records read once at start-up with kube's rules: a record with fewer than 3 columns (or a CSV
 * syntax error) stops the server; an empty token is skipped and a duplicate token replaces the
 * earlier one, each with a warning; the fourth column is split on commas into groups.
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from '../observability/logging.js';
import { readGoCsv } from '../server/options/go-csv.js';
import type { AuthenticationResult, TokenAuthenticator } from './interface.js';

/** The users of a token file's text, by token. Throws with kube's message on an invalid file. */
export function parseTokenFile(path: string, text: string, warn: (message: string) => void): Map<string, AuthenticationResult> {
  const tokens = new Map<string, AuthenticationResult>();
  let recordNum = 0;
  for (const record of readGoCsv(text)) {
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    recordNum++;
    const [token, name, uid] = record as [string, string, string];
    if (token === '') {
      warn(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (tokens.has(token)) warn(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    // Go's strings.Split: an empty fourth column is one empty group, as in kube.
    const groups = record.length >= 4 ? (record[3] as string).split(',') : [];
    tokens.set(token, { user: { name, uid, groups } });
  }
  return tokens;
}

/** Authenticates the tokens of a token file. Answers synchronously; unknown tokens are no opinion. */
export class StaticTokenAuthenticator implements TokenAuthenticator {
  constructor(private readonly tokens: ReadonlyMap<string, AuthenticationResult>) {}

  /** Reads and parses path; throws (the server must not start) when it cannot. */
  static async fromFile(path: string, log: Logger): Promise<StaticTokenAuthenticator> {
    const text = await readFile(path, 'utf8');
    return new StaticTokenAuthenticator(parseTokenFile(path, text, (m) => log.warn(m)));
  }

  authenticateToken(token: string): AuthenticationResult | undefined {
    return this.tokens.get(token);
  }
}
