/**
 * Flag groups: the flags of one concern (secure serving, authentication, authorization, encryption
 * at rest, ...) registered and validated together, each in a file of its own beside this one, as
 * kube-apiserver's options packages are cut. flags.ts registers every group listed here and merges
 * what each validates into ServerOptions.
 */
import type { Argv } from 'yargs';
import { authenticationFlags } from './authentication.js';
import { authorizationFlags } from './authorization.js';
import { encryptionFlags } from './encryption.js';

/** One group of flags. */
export interface FlagGroup<K extends keyof FlagGroupOptions = keyof FlagGroupOptions> {
  /** Adds the group's options (kube's names, defaults and help texts) to the parser. */
  register(parser: Argv): void;
  /** The group's validated options from the parsed flags; throws FlagError on an invalid value. */
  validate(parsed: Record<string, unknown>): Pick<FlagGroupOptions, K>;
}

/**
 * The options of every group, each under its own key. Each is optional in ServerOptions: an absent
 * group behaves as its flags' defaults.
 */
export interface FlagGroupOptions {}

/** Every group, in the order their flags appear in --help. */
export const flagGroups: readonly FlagGroup[] = [authenticationFlags, authorizationFlags, encryptionFlags];
