/**
 * Invalid and valid CRDs for the validation table test, most taken from kube's validation_test.go
 * and the messages its API server prints. Test code only.
 */
import { specSchema } from './test-crd.js';

/** One table row: an edit of the valid CRD and the exact messages expected. */
export interface Case {
  readonly name: string;
  readonly edit: (crd: any) => void;
  readonly want: readonly string[];
}

const v = (crd: any) => crd.spec.versions[0];
const root = (crd: any) => v(crd).schema.openAPIV3Schema;
const spec = (crd: any) => root(crd).properties.spec;

/** The cases. */
export const cases: Case[] = [
  { name: 'a valid CRD', edit: () => undefined, want: [] },
  {
    name: 'name, group and scope',
    edit: (c) => {
      c.metadata.name = 'widgets';
      c.spec.group = 'example';
      c.spec.scope = 'Global';
    },
    want: [
      "metadata.name: Invalid value: \"widgets\": must be spec.names.plural+\".\"+spec.group",
      "spec.group: Invalid value: \"example\": should be a domain with at least one dot",
      "spec.scope: Unsupported value: \"Global\": supported values: \"Cluster\", \"Namespaced\"",
    ],
  },
  {
    name: 'names',
    edit: (c) => {
      c.spec.names = { plural: 'Widgets', singular: 'wid get', kind: '9Widget', listKind: '9Widget', shortNames: ['w', 'W_'], categories: ['all', 'a.b'] };
      c.metadata.name = 'Widgets.example.com';
    },
    want: [
      "spec.names.plural: Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.names.singular: Invalid value: \"wid get\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.names.kind: Invalid value: \"9Widget\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.names.listKind: Invalid value: \"9Widget\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.names.shortNames[1]: Invalid value: \"W_\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.names.listKind: Invalid value: \"9Widget\": kind and listKind may not be the same",
      "spec.names.categories[1]: Invalid value: \"a.b\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: 'a property without type',
    edit: (c) => {
      spec(c).properties.size = { description: 'no type' };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields",
    ],
  },
  {
    name: 'no type at the root and an array without items',
    edit: (c) => {
      delete root(c).type;
      spec(c).properties.list = { type: 'array' };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[list].items: Required value: must be specified",
      "spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root",
    ],
  },
  {
    name: 'versions with different schemas report per-version paths',
    edit: (c) => {
      c.spec.versions.push({ name: 'v2', served: true, storage: false, schema: specSchema({ size: { description: 'x' } }) });
    },
    want: [
      "spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields",
    ],
  },
  {
    name: 'forbidden keywords',
    edit: (c) => {
      spec(c).properties.size = { type: 'array', uniqueItems: true, items: { type: 'string' } };
      spec(c).properties.ref = { $ref: '#/definitions/x' };
      spec(c).properties.mixed = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } };
      spec(c).properties.nul = { type: 'null' };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
      "spec.validation.openAPIV3Schema.properties[spec].properties[ref].$ref: Forbidden: $ref is not supported",
      "spec.validation.openAPIV3Schema.properties[spec].properties[mixed].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
      "spec.validation.openAPIV3Schema.properties[spec].properties[nul].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
      "spec.validation.openAPIV3Schema.properties[spec].properties[nul].type: Forbidden: type cannot be set to null, use nullable as an alternative",
    ],
  },
  {
    name: 'value validations holding structural keywords',
    edit: (c) => {
      spec(c).properties.size = { type: 'integer', allOf: [{ type: 'integer', description: 'd', nullable: true }], anyOf: [{ properties: { metadata: { maximum: 1 } } }] };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].description: Forbidden: must be empty to be structural",
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].nullable: Forbidden: must be false to be structural",
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].allOf[0].type: Forbidden: must be empty to be structural",
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context",
    ],
  },
  {
    name: 'junctors naming fields the schema does not specify',
    edit: (c) => {
      root(c).anyOf = [{ properties: { spec: { properties: { nope: { minimum: 1 } } } } }];
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[nope]: Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[spec].properties[nope]",
    ],
  },
  {
    name: 'int-or-string patterns are structural',
    edit: (c) => {
      spec(c).properties.port = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
      spec(c).properties.port2 = { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^a' }] };
    },
    want: [],
  },
  {
    name: 'metadata at the root',
    edit: (c) => {
      root(c).properties.metadata = { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, labels: { type: 'object' } } };
      root(c).properties.kind = { type: 'integer' };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[kind].type: Invalid value: \"integer\": must be string",
      "spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
    ],
  },
  {
    name: 'metadata restricting name and generateName only is fine',
    edit: (c) => {
      root(c).properties.metadata = { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, generateName: { type: 'string' } } };
    },
    want: [],
  },
  {
    name: 'list and map types',
    edit: (c) => {
      spec(c).properties.m = { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { k: { type: 'string' }, o: { type: 'object' } } }, 'x-kubernetes-list-map-keys': ['k', 'o', 'missing'] };
      spec(c).properties.s = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } };
      spec(c).properties.bad = { type: 'string', 'x-kubernetes-list-type': 'list', 'x-kubernetes-map-type': 'weird' };
      spec(c).properties.nokeys = { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', nullable: true } };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[m].items.properties[o].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map",
      "spec.validation.openAPIV3Schema.properties[spec].properties[m].x-kubernetes-list-map-keys: Invalid value: []string{\"k\", \"o\", \"missing\"}: entries must all be names of item properties",
      "spec.validation.openAPIV3Schema.properties[spec].properties[m].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
      "spec.validation.openAPIV3Schema.properties[spec].properties[m].items.properties[o].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
      "spec.validation.openAPIV3Schema.properties[spec].properties[s].items.x-kubernetes-map-type: Invalid value: \"null\": must be atomic as item of a list with x-kubernetes-list-type=set",
      "spec.validation.openAPIV3Schema.properties[spec].properties[bad].type: Invalid value: \"string\": must be object if x-kubernetes-map-type is specified",
      "spec.validation.openAPIV3Schema.properties[spec].properties[bad].x-kubernetes-map-type: Unsupported value: \"weird\": supported values: \"atomic\", \"granular\"",
      "spec.validation.openAPIV3Schema.properties[spec].properties[bad].type: Invalid value: \"string\": must be array if x-kubernetes-list-type is specified",
      "spec.validation.openAPIV3Schema.properties[spec].properties[bad].x-kubernetes-list-type: Unsupported value: \"list\": supported values: \"atomic\", \"set\", \"map\"",
      "spec.validation.openAPIV3Schema.properties[spec].properties[nokeys].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map",
      "spec.validation.openAPIV3Schema.properties[spec].properties[nokeys].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map",
    ],
  },
  {
    name: 'embedded resources and preserve-unknown-fields',
    edit: (c) => {
      spec(c).properties.e = { type: 'object', 'x-kubernetes-embedded-resource': true };
      spec(c).properties.e2 = { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
      spec(c).properties.ios = { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[e2].type: Required value: must be object if x-kubernetes-embedded-resource is true",
      "spec.validation.openAPIV3Schema.properties[spec].properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
      "spec.validation.openAPIV3Schema.properties[spec].properties[ios].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
    ],
  },
  {
    name: 'x-kubernetes-preserve-unknown-fields false (not even convertible to a structural schema)',
    edit: (c) => {
      spec(c).properties.p = { type: 'object', 'x-kubernetes-preserve-unknown-fields': false };
      spec(c).properties.ios = { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined",
    ],
  },
  {
    name: 'defaults in top-level metadata and nullable root',
    edit: (c) => {
      root(c).nullable = true;
      root(c).properties.metadata = { type: 'object', default: { name: 'x' } };
    },
    want: [
      "spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root",
      "spec.validation.openAPIV3Schema.properties[metadata].default: Forbidden: must not be set in top-level metadata",
    ],
  },
  {
    name: 'the root with the status subresource',
    edit: (c) => {
      v(c).subresources = { status: {} };
      root(c).minProperties = 1;
    },
    want: [
      "spec.validation.openAPIV3Schema: Invalid value: {\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":{\"size\":{\"type\":\"integer\"}}}},\"minProperties\":1}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled",
    ],
  },
  {
    name: 'printer columns and scale',
    edit: (c) => {
      v(c).additionalPrinterColumns = [{ name: '', type: 'float', format: 'uuid', jsonPath: 'spec.size' }, { name: 'Age', type: 'date', jsonPath: '' }];
      v(c).subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'status', labelSelectorPath: '.metadata.labels' } };
    },
    want: [
      "spec.subresources.scale.specReplicasPath: Invalid value: \".status.replicas\": should be a json path under .spec",
      "spec.subresources.scale.statusReplicasPath: Invalid value: \"status\": must be a simple json path starting with .",
      "spec.subresources.scale.labelSelectorPath: Invalid value: \".metadata.labels\": should be a json path under either .spec or .status",
      "spec.additionalPrinterColumns[0].name: Required value",
      "spec.additionalPrinterColumns[0].type: Invalid value: \"float\": must be one of boolean,date,integer,number,string",
      "spec.additionalPrinterColumns[0].format: Invalid value: \"uuid\": must be one of byte,date,date-time,double,float,int32,int64,password",
      "spec.additionalPrinterColumns[0].JSONPath: Invalid value: \"spec.size\": must be a simple json path starting with .",
      "spec.additionalPrinterColumns[1].JSONPath: Required value",
    ],
  },
  {
    name: 'conversion webhook',
    edit: (c) => {
      c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://user@example.com/convert?x=1#f' }, conversionReviewVersions: ['v3', 'v3'] } };
    },
    want: [
      "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      "spec.conversion.webhookClientConfig.url: Invalid value: \"user\": user information is not permitted in the URL",
      "spec.conversion.webhookClientConfig.url: Invalid value: \"f\": fragments are not permitted in the URL",
      "spec.conversion.webhookClientConfig.url: Invalid value: \"x=1\": query parameters are not permitted in the URL",
      "spec.conversion.conversionReviewVersions[1]: Invalid value: \"v3\": duplicate version",
      "spec.conversion.conversionReviewVersions: Invalid value: []string{\"v3\", \"v3\"}: must include at least one of v1, v1beta1",
    ],
  },
  {
    name: 'conversion webhook service',
    edit: (c) => {
      c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'ns', name: '', path: 'convert//x', port: 70000 } }, conversionReviewVersions: ['v1'] } };
    },
    want: [
      "spec.conversion.webhookClientConfig.service.namespace: Required value",
      "spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
      "spec.conversion.webhookClientConfig.service.path: Invalid value: \"convert//x\": must start with a '/'",
      "spec.conversion.webhookClientConfig.service.path: Invalid value: \"convert//x\": segment[1] may not be empty",
    ],
  },
  {
    name: 'conversion webhook without client config',
    edit: (c) => {
      c.spec.conversion = { strategy: 'Webhook' };
    },
    want: [
      "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
      "spec.conversion.conversionReviewVersions: Required value",
    ],
  },
  {
    name: 'deprecation warnings',
    edit: (c) => {
      v(c).deprecationWarning = 'old';
      c.spec.versions.push({ name: 'v2', served: true, storage: false, deprecated: true, deprecationWarning: 'x'.repeat(257), schema: v(c).schema });
    },
    want: [
      "spec.versions[0].deprecationWarning: Invalid value: \"old\": can only be set for deprecated versions",
      "spec.versions[1].deprecationWarning: Invalid value: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\": must be <= 256 characters long",
    ],
  },
  {
    name: 'version names and storage',
    edit: (c) => {
      c.spec.versions.push({ name: 'v1', served: true, storage: true, schema: v(c).schema });
      c.spec.versions.push({ name: 'V_3', served: false, storage: false, schema: v(c).schema });
    },
    want: [
      "spec.versions[2].name: Invalid value: \"V_3\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.versions: Invalid value: [{\"name\":\"v1\",\"served\":true,\"storage\":true},{\"name\":\"v1\",\"served\":true,\"storage\":true},{\"name\":\"V_3\",\"served\":false,\"storage\":false}]: must contain unique version names",
      "spec.versions: Invalid value: [{\"name\":\"v1\",\"served\":true,\"storage\":true},{\"name\":\"v1\",\"served\":true,\"storage\":true},{\"name\":\"V_3\",\"served\":false,\"storage\":false}]: must have exactly one version marked as storage version",
      "status.storedVersions: Invalid value: []string{\"v1\"}: must have the storage version v1",
    ],
  },
  {
    name: 'selectable fields',
    edit: (c) => {
      spec(c).properties.name = { type: 'string' };
      spec(c).properties.obj = { type: 'object' };
      v(c).selectableFields = [{ jsonPath: '.spec.name' }, { jsonPath: '.spec.name' }, { jsonPath: '.metadata.name' }, { jsonPath: '.spec.obj' }, { jsonPath: '.spec.nope' }, { jsonPath: 'spec.name' }, { jsonPath: '.spec[0]' }];
    },
    want: [
      "spec.selectableFields[1].jsonPath: Duplicate value: \".spec.name\"",
      "spec.selectableFields[2].jsonPath: Invalid value: \".metadata.name\": is an invalid path: does not refer to a valid field",
      "spec.selectableFields[3].jsonPath: Invalid value: \".spec.obj\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
      "spec.selectableFields[4].jsonPath: Invalid value: \".spec.nope\": is an invalid path: does not refer to a valid field",
      "spec.selectableFields[5].jsonPath: Invalid value: \"spec.name\": is an invalid path: expected [ or . but got: spec",
      "spec.selectableFields[6].jsonPath: Invalid value: \".spec[0]\": is an invalid path: array notation is not allowed",
    ],
  },
  {
    name: 'x-kubernetes-validations texts',
    edit: (c) => {
      spec(c)['x-kubernetes-validations'] = [{ rule: ' ' }, { rule: 'self.size > 1', message: ' ' }, { rule: 'self.size\n> 1' }, { rule: 'true', messageExpression: ' ' }];
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified",
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].message: Invalid value: \" \": message must be non-empty if specified",
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].message: Required value: message must be specified if rule contains line breaks",
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].messageExpression: Required value: messageExpression must be non-empty if specified",
    ],
  },
  {
    name: 'preserveUnknownFields true',
    edit: (c) => {
      c.spec.preserveUnknownFields = true;
    },
    want: [
      "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
    ],
  },
  {
    name: 'a protected group needs approval',
    edit: (c) => {
      c.spec.group = 'widgets.k8s.io';
      c.metadata.name = 'widgets.widgets.k8s.io';
    },
    want: [
      "metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111",
    ],
  },
  {
    name: 'too many selectable fields',
    edit: (c) => {
      const fields = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
      for (const f of fields) spec(c).properties[f] = { type: 'boolean' };
      v(c).selectableFields = fields.map((f) => ({ jsonPath: `.spec.${f}` }));
    },
    want: [
      "spec.selectableFields: Too many: 9: must have at most 8 items",
    ],
  },
  {
    name: 'a webhook URL without scheme or host',
    edit: (c) => {
      c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'conv.example.com/x' }, conversionReviewVersions: ['v1beta1'] } };
    },
    want: [
      "spec.conversion.webhookClientConfig.url: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      "spec.conversion.webhookClientConfig.url: Invalid value: \"\": host must be specified; desired format: https://host[/path]",
    ],
  },
  {
    name: 'a non-object root with the status subresource',
    edit: (c) => {
      v(c).subresources = { status: {} };
      root(c).type = 'array';
      root(c).items = { type: 'string' };
    },
    want: [
      "spec.validation.openAPIV3Schema.type: Invalid value: \"array\": only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled",
      "spec.validation.openAPIV3Schema.type: Invalid value: \"array\": must be object at the root",
    ],
  },
  {
    name: 'junctor details: nested additionalProperties, map types, patterns and items completeness',
    edit: (c) => {
      spec(c).properties.list = { type: 'array', items: { type: 'string' } };
      spec(c).properties.size = { type: 'integer', not: { additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic', 'x-kubernetes-validations': [{ rule: 'true' }] } };
      root(c).oneOf = [{ properties: { spec: { properties: { list: { items: { properties: { x: { pattern: '(' } } } } } } } }];
      spec(c).properties.lookahead = { type: 'string', pattern: '^(?=a)' };
    },
    want: [
      "spec.validation.openAPIV3Schema.oneOf[0].properties[spec].properties[list].items.properties[x].pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`",
      "spec.validation.openAPIV3Schema.properties[spec].properties[list].items.properties[x]: Required value: because it is defined in spec.validation.openAPIV3Schema.oneOf[0].properties[spec].properties[list].items.properties[x]",
      "spec.validation.openAPIV3Schema.properties[spec].properties[lookahead].pattern: Invalid value: \"^(?=a)\": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].not.additionalProperties: Forbidden: must be undefined to be structural",
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].not.x-kubernetes-map-type: Forbidden: must be undefined to be structural",
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].not.x-kubernetes-validations: Forbidden: must be empty to be structural",
      "spec.validation.openAPIV3Schema.properties[spec].properties[size].not.type: Required value: must be object if x-kubernetes-map-type is specified",
    ],
  },
  {
    name: 'set items that may be null, and a nested set',
    edit: (c) => {
      spec(c).properties.s = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' }, nullable: true } };
    },
    want: [
      "spec.validation.openAPIV3Schema.properties[spec].properties[s].items.x-kubernetes-list-type: Invalid value: \"set\": must be atomic as item of a list with x-kubernetes-list-type=set",
      "spec.validation.openAPIV3Schema.properties[spec].properties[s].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set",
    ],
  },
  {
    name: 'a generated name cannot be plural.group',
    edit: (c) => {
      c.metadata.generateName = 'widgets-';
      c.metadata.name = 'widgets-x7k2p';
    },
    want: [
      "metadata.generateName: Invalid value: \"widgets-\": must be spec.names.plural+\".\"+spec.group",
      "metadata.name: Invalid value: \"widgets-x7k2p\": must be spec.names.plural+\".\"+spec.group",
    ],
  },
];
