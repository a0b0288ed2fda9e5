/**
 * --controllers (kube-controller-manager's flag): which of the kube-controller-manager loops that
 * Capstan runs inside the API server are on. '*' turns on every one, 'foo' turns on foo, '-foo'
 * turns it off; names are KCM's ("serviceaccount-controller") or their older aliases
 * ("serviceaccount"). Someone running a real kube-controller-manager against Capstan turns
 * Capstan's copies off here (a namespace then stays Terminating until that manager's namespace
 * controller empties it). The API server's own loops (IP repair, bootstrap objects) are not listed:
 * kube-apiserver cannot turn them off either.
 */
import { controllerManagerLoops } from '../in-server-controllers.js';
import { FlagError, stringSliceFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated --controllers. */
export interface ControllersOptions {
  /** The names (never aliases) of the kube-controller-manager loops turned off. */
  readonly disabled: ReadonlySet<string>;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly controllers?: ControllersOptions;
  }
}

/** The defaults: every loop on. */
export const defaultControllersOptions: ControllersOptions = { disabled: new Set() };

/** The name of the loop called name or alias, if it is one --controllers selects. */
function canonical(nameOrAlias: string): string | undefined {
  return controllerManagerLoops().find((c) => c.name === nameOrAlias || c.controllerManagerAlias === nameOrAlias)?.name;
}

/** The --controllers flag group. */
export const controllersFlags: FlagGroup<'controllers'> = {
  repeatable: ['controllers'],
  register(y) {
    const names = controllerManagerLoops().map((c) => c.name);
    y.option('controllers', {
      type: 'string',
      describe: `A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.\nAll controllers: ${names.sort().join(', ')} (the kube-controller-manager loops Capstan runs inside the API server).`,
      defaultDescription: '[*]',
    });
  },
  validate(p) {
    const given = p.controllers === undefined ? ['*'] : stringSliceFlag('controllers', p.controllers);
    const on = new Set<string>();
    const off = new Set<string>();
    let all = false;
    for (const entry of given) {
      if (entry === '*') {
        all = true;
        continue;
      }
      const negated = entry.startsWith('-');
      const name = canonical(negated ? entry.slice(1) : entry);
      if (!name) throw new FlagError(`${JSON.stringify(negated ? entry.slice(1) : entry)} is not in the list of known controllers`);
      (negated ? off : on).add(name);
    }
    const disabled = new Set<string>();
    for (const c of controllerManagerLoops()) {
      if (off.has(c.name) || (!all && !on.has(c.name))) disabled.add(c.name);
    }
    return { controllers: { disabled } };
  },
};
