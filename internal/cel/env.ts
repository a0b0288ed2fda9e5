/**
 * Kubernetes' CEL environment on @bufbuild/cel: the standard library, cel-go's strings (v2) and
 * sets extensions, and Kubernetes' lists, regex, url, quantity, ip, cidr, format, semver and authz
 * libraries, with optional values as functions. Every function is wrapped to charge its runtime
 * cost (1 per call, plus a tenth of the size of the strings and lists it traverses) to the current
 * evaluation, and cel.bind and comprehension iterations are charged through the AST rewrite.
 */
import { celEnv, celFunc, CelScalar, isCelList, isCelMap, type CelEnv, type CelFunc, type CelValue } from '@bufbuild/cel';
import { costStepFunction } from './ast.js';
import type { OverloadShape } from './check.js';
import { charge } from './eval-context.js';
import { typedConcat, typedEquals } from './list-semantics.js';
import { authzLibrary } from './library/authz.js';
import { comprehensionLibrary } from './library/comprehension.js';
import { formatLibrary } from './library/format.js';
import { ipLibrary } from './library/ip.js';
import { listsLibrary } from './library/lists.js';
import { optionalLibrary } from './library/optional.js';
import { quantityLibrary } from './library/quantity.js';
import { regexLibrary } from './library/regex.js';
import { semverLibrary } from './library/semver.js';
import { setsLibrary } from './library/sets.js';
import { stringsLibrary } from './library/strings.js';
import { urlLibrary } from './library/url.js';
import { kubeTypeRegistry } from './types.js';

// Functions whose cost grows with the size of what they read (cel-go's traversal costs).
const traversing = new Set([
  '_+_', '_==_', '_!=_', '@in', 'contains', 'startsWith', 'endsWith', 'matches', 'find', 'findAll', 'split', 'replace', 'join',
  'indexOf', 'lastIndexOf', 'lowerAscii', 'upperAscii', 'trim', 'substring', 'format', 'isSorted', 'sum', 'min', 'max',
  'sets.contains', 'sets.equivalent', 'sets.intersects', 'string', 'bytes',
]);

function sizeOf(v: CelValue | undefined): number {
  if (typeof v === 'string') return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (isCelList(v) || isCelMap(v)) return v.size;
  return 0;
}

/** Wraps f to charge its cost to the current evaluation after each matching call. */
function costed(f: CelFunc): CelFunc {
  const sized = traversing.has(f.name);
  const wrapper = {
    get id() {
      return f.id;
    },
    name: f.name,
    target: f.target,
    arguments: f.arguments,
    result: f.result,
    call(id: number, target: CelValue | undefined, args: CelValue[]) {
      const r = f.call(id, target, args);
      if (r !== undefined) {
        let cost = 1;
        if (sized) {
          let size = sizeOf(target);
          for (const a of args) size += sizeOf(a);
          cost += Math.ceil(size * 0.1);
        }
        charge(cost);
      }
      return r;
    },
  };
  return wrapper as unknown as CelFunc;
}

const costStep = celFunc(costStepFunction, [CelScalar.DYN], CelScalar.DYN, (v) => v);

/** Every function of the Kubernetes libraries (without the standard library). */
export const kubeLibraries: readonly CelFunc[] = [
  ...stringsLibrary,
  ...listsLibrary,
  ...setsLibrary,
  ...regexLibrary,
  ...urlLibrary,
  ...quantityLibrary,
  ...ipLibrary,
  ...formatLibrary,
  ...semverLibrary,
  ...authzLibrary,
  ...optionalLibrary,
  ...comprehensionLibrary,
  costStep,
];

/** Wraps ==, != and + so schema-typed values (set and map lists, and what holds them) compare and combine as Kubernetes' do. */
function listAware(f: CelFunc, equal: CelFunc): CelFunc {
  if (f.name !== '_==_' && f.name !== '_!=_' && f.name !== '_+_') return f;
  const plain = (a: CelValue, b: CelValue): boolean => equal.call(0, undefined, [a, b]) === true;
  const negate = f.name === '_!=_';
  const concat = f.name === '_+_';
  return {
    get id() {
      return f.id;
    },
    name: f.name,
    target: f.target,
    arguments: f.arguments,
    result: f.result,
    call(id: number, target: CelValue | undefined, args: CelValue[]) {
      if (args.length !== 2) return f.call(id, target, args);
      if (concat) return typedConcat(args[0]!, args[1]!, plain) ?? f.call(id, target, args);
      const s = typedEquals(args[0]!, args[1]!, plain);
      if (s === undefined) return f.call(id, target, args);
      return negate ? !s : s;
    },
  } as unknown as CelFunc;
}

function build(): CelEnv {
  const raw = celEnv({ funcs: [...kubeLibraries], registry: kubeTypeRegistry });
  const equal = [...raw.funcs].find((f) => f.name === '_==_')!;
  return celEnv({ funcs: [...raw.funcs].map((f) => costed(listAware(f, equal))), registry: kubeTypeRegistry });
}

/** The environment every Kubernetes expression is planned in. */
export const kubeEnv: CelEnv = build();

/** Overload shapes by function name, for the compile-time check. */
export const kubeFunctionShapes: ReadonlyMap<string, readonly OverloadShape[]> = (() => {
  const out = new Map<string, OverloadShape[]>();
  for (const f of kubeEnv.funcs) {
    const list = out.get(f.name) ?? [];
    list.push({ receiver: f.target !== undefined, args: f.arguments.length });
    out.set(f.name, list);
  }
  return out;
})();

/** Whether name is a message type of the environment (Kubernetes' types and protobuf's well-known types). */
export function isKubeTypeName(name: string): boolean {
  return kubeEnv.registry.getMessage(name) !== undefined;
}
