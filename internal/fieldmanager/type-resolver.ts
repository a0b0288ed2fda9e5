/**
 * Type resolution for the kube layer: the structured-merge-diff type of a kind (built from the
 * generated api/gen/ssa-types.ts for the built-in kinds, deduced for kinds without a schema) and
 * the JSON of a Go zero value of a kind, which kube uses as the "live" object of a create.
 */
import { ssaKinds, ssaTypes, type SsaAtom, type SsaRef } from '../../api/gen/ssa-types.js';
import type { GVK, ResolvedType, TypeResolver } from './interface.js';
import { deducedSchema, deducedTypeRef, Schema, untypedTypes, type Atom, type ElementRelationship, type ListType, type MapType, type StructField, type TypeRef } from './schema.js';
import { cloneValue, isMap, type Value, type ValueMap } from './value.js';
import { setOwnKey } from '../collections/own-key.js';

export type { GVK, ResolvedType, TypeResolver } from './interface.js';

/** The apiVersion string of a GVK ("v1", "apps/v1"). */
export function apiVersionOfGVK(gvk: GVK): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

/** Go's GroupVersionKind.String(): "apps/v1, Kind=Deployment", "/v1, Kind=Pod". */
export function gvkString(gvk: GVK): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

/** The type of a kind, deduced when the resolver has none. */
export function resolveOrDeduce(resolver: TypeResolver, gvk: GVK): ResolvedType {
  return resolver.typeOf(gvk) ?? { schema: deducedSchema, typeRef: deducedTypeRef };
}

const scalarRefs: Readonly<Record<string, TypeRef>> = {
  n: { inlined: { scalar: 'numeric' } },
  s: { inlined: { scalar: 'string' } },
  b: { inlined: { scalar: 'boolean' } },
  u: { inlined: { scalar: 'untyped' } },
};

function refFrom(r: SsaRef): TypeRef {
  if (typeof r !== 'string') return { inlined: atomFrom(r) };
  const scalar = scalarRefs[r];
  if (scalar) return scalar;
  const bang = r.indexOf('!');
  if (bang < 0) return { namedType: r.slice(1) };
  const er: ElementRelationship = r.slice(bang + 1) === 'a' ? 'atomic' : 'separable';
  return { namedType: r.slice(1, bang), elementRelationship: er };
}

function atomFrom(a: SsaAtom): Atom {
  const atom: { scalar?: Atom['scalar']; list?: ListType; map?: MapType } = {};
  if (a.s) atom.scalar = ({ n: 'numeric', s: 'string', b: 'boolean', u: 'untyped' } as const)[a.s as 'n' | 's' | 'b' | 'u'];
  if (a.l) {
    atom.list = {
      elementType: refFrom(a.l.e),
      elementRelationship: a.l.r === 'as' ? 'associative' : 'atomic',
      ...(a.l.k ? { keys: a.l.k } : {}),
    };
  }
  if (a.m) {
    const fields: StructField[] = Object.entries(a.m.f ?? {}).map(([name, ref]) => {
      const d = a.m!.d?.[name];
      return d === undefined ? { name, type: refFrom(ref) } : { name, type: refFrom(ref), default: d as Value };
    });
    atom.map = {
      ...(fields.length > 0 ? { fields } : {}),
      ...(a.m.e !== undefined ? { elementType: refFrom(a.m.e) } : {}),
      ...(a.m.r ? { elementRelationship: a.m.r === 'a' ? 'atomic' : 'separable' } : {}),
    } as MapType;
  }
  return atom;
}

class BuiltinTypeResolver implements TypeResolver {
  private readonly schema = new Schema([...Object.entries(ssaTypes).map(([name, a]) => [name, atomFrom(a)] as const), ...untypedTypes]);
  private readonly zeros = new Map<string, ValueMap>();

  private definition(gvk: GVK): string | undefined {
    return ssaKinds[`${apiVersionOfGVK(gvk)}/${gvk.kind}`];
  }

  typeOf(gvk: GVK): ResolvedType | undefined {
    const def = this.definition(gvk);
    return def === undefined ? undefined : { schema: this.schema, typeRef: { namedType: def } };
  }

  zeroObject(gvk: GVK): ValueMap {
    const def = this.definition(gvk);
    const body = def === undefined ? { metadata: {} } : this.zeroOf(def, new Set());
    return { ...cloneValue(body), apiVersion: apiVersionOfGVK(gvk), kind: gvk.kind };
  }

  normalize(gvk: GVK, obj: ValueMap): ValueMap {
    const def = this.definition(gvk);
    return def === undefined ? obj : this.normalizeStruct(def, obj);
  }

  private normalizeRef(ref: SsaRef | undefined, v: Value): Value {
    if (ref === undefined || v === null) return v;
    if (typeof ref === 'string') {
      if (!ref.startsWith('@') || !isMap(v)) return v;
      return this.normalizeStruct(refFrom(ref).namedType!, v);
    }
    if (ref.l && Array.isArray(v) && !ref.m) return v.map((item) => this.normalizeRef(ref.l!.e, item));
    if (ref.m && !ref.m.f && ref.m.e !== undefined && isMap(v) && !ref.l) {
      const out: ValueMap = {};
      for (const [k, x] of Object.entries(v)) setOwnKey(out, k, this.normalizeRef(ref.m.e, x));
      return out;
    }
    return v;
  }

  private normalizeStruct(def: string, v: ValueMap): ValueMap {
    const m = ssaTypes[def]?.m;
    if (!m?.f) return v;
    const out: ValueMap = {};
    for (const [k, x] of Object.entries(v)) setOwnKey(out, k, this.normalizeRef(m.f[k], x));
    if (m.z) {
      const zero = this.zeroOf(def, new Set());
      for (const k of Object.keys(m.z)) if (!(k in out)) out[k] = cloneValue(zero[k]!);
    }
    return out;
  }

  private zeroOf(def: string, visiting: Set<string>): ValueMap {
    const cached = this.zeros.get(def);
    if (cached) return cached;
    const out: ValueMap = {};
    const m = ssaTypes[def]?.m;
    if (m?.z && !visiting.has(def)) {
      visiting.add(def);
      for (const [name, z] of Object.entries(m.z)) {
        const ref = m.f?.[name];
        out[name] = z === '@' && typeof ref === 'string' && ref.startsWith('@') ? this.zeroOf(refFrom(ref).namedType!, visiting) : (z as Value);
      }
      visiting.delete(def);
    }
    this.zeros.set(def, out);
    return out;
  }
}

let builtins: TypeResolver | undefined;

/** The resolver of every built-in kind of Kubernetes 1.33 (shared; built on first use). */
export function typeResolverForBuiltins(): TypeResolver {
  return (builtins ??= new BuiltinTypeResolver());
}

/** A resolver that knows no kind: every object is deduced (kube's behaviour for CRDs without a schema). */
export function deducedTypeResolver(): TypeResolver {
  return {
    typeOf: () => undefined,
    zeroObject: (gvk) => ({ apiVersion: apiVersionOfGVK(gvk), kind: gvk.kind, metadata: {} }),
    normalize: (_gvk, obj) => obj,
  };
}
