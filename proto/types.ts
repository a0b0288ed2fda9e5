/**
 * Shapes shared by the Protobuf codec and its generator: the packed message table that
 * hack/gen-proto.ts writes into proto/gen/messages.ts, and the unpacked form the codec walks.
 */

/** A plain JSON value, as the server holds objects internally (bigint only for int64 beyond 2^53 on request). */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object (an API object or a nested struct). */
export type JsonObject = { [key: string]: JsonValue };

/** Protobuf scalar types as spelled in .proto files. */
export type ScalarType =
  | 'string'
  | 'bytes'
  | 'bool'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'sint32'
  | 'sint64'
  | 'fixed32'
  | 'fixed64'
  | 'sfixed32'
  | 'sfixed64'
  | 'float'
  | 'double';

/**
 * Messages whose JSON form is not a plain object of their fields: kube's Go types give them custom
 * JSON marshalling. The codec handles each by name; every other message is `''` (plain struct).
 */
export type SpecialKind =
  | ''
  | 'time' // meta/v1 Time: RFC 3339 seconds, or null when zero
  | 'microTime' // meta/v1 MicroTime: RFC 3339 microseconds, or null when zero
  | 'duration' // meta/v1 Duration: Go duration string ("1m0s")
  | 'quantity' // resource.Quantity: its string
  | 'intOrString' // intstr.IntOrString: number or string
  | 'rawJson' // runtime.RawExtension, meta/v1 FieldsV1, apiextensions JSON: embedded JSON value in bytes field 1
  | 'schemaOrBool' // apiextensions JSONSchemaPropsOrBool: boolean or schema
  | 'schemaOrArray' // apiextensions JSONSchemaPropsOrArray: schema or array of schemas
  | 'schemaOrStringArray' // apiextensions JSONSchemaPropsOrStringArray: schema or array of strings
  | 'stringList'; // a Go named []string (ExtraValue, Verbs): message {repeated string items = 1} that is a JSON array

/** Bits of a packed field's flags. */
export const FieldFlag = {
  /** `repeated`: a JSON array. */
  repeated: 1,
  /** `map<string, V>`: a JSON object; entries are messages {key = 1, value = 2}. */
  map: 2,
  /** A Go-embedded struct: no JSON property of its own, its fields sit inline in the parent object. */
  inline: 4,
  /** A Go non-pointer field: kube always writes it to Protobuf, with its zero value when unset. */
  value: 8,
  /** The JSON tag has omitempty: a zero value (or empty list/map) is left out of JSON. */
  omitEmpty: 16,
  /** A Go pointer field: written only when set, and a set zero value (0, false, "") is kept in JSON. */
  pointer: 32,
} as const;

/** One field as packed in the generated table: [number, jsonName, type, flags]. Type is a scalar name or a message index. */
export type PackedField = readonly [number: number, jsonName: string, type: string | number, flags: number];

/** One message as packed: [package index, short name, special kind, fields in Go declaration order]. */
export type PackedMessage = readonly [pkg: number, name: string, special: SpecialKind, fields: readonly PackedField[]];

/** One top-level kind: [group, version, kind, message index]. */
export type PackedKind = readonly [group: string, version: string, kind: string, message: number];

/** The whole generated table. */
export interface PackedTable {
  readonly packages: readonly string[];
  readonly messages: readonly PackedMessage[];
  readonly kinds: readonly PackedKind[];
}

/** A field of an unpacked message. */
export interface FieldSpec {
  readonly number: number;
  readonly jsonName: string;
  /** Set for scalar fields (and for map values that are scalars). */
  readonly scalar?: ScalarType;
  /** Full name of the message type (or of the map value's message type). */
  readonly message?: string;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly inline: boolean;
  readonly value: boolean;
  readonly omitEmpty: boolean;
  readonly pointer: boolean;
}

/** An unpacked message: fields in Go declaration order (JSON order) and by number (wire order). */
export interface MessageSpec {
  readonly fullName: string;
  readonly special: SpecialKind;
  /** Go declaration order: the order kube writes JSON properties in. */
  readonly fields: readonly FieldSpec[];
  /** Ascending field number: the order gogo-protobuf writes the wire format in. */
  readonly wireOrder: readonly FieldSpec[];
  readonly byNumber: ReadonlyMap<number, FieldSpec>;
}

/** An API group, version and kind. */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}
