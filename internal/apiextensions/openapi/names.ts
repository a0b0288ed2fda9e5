/**
 * The names kube's OpenAPI builders give a custom resource: definition names (kube-openapi's
 * REST-friendly canonical type name, the group reversed), operation ids and tags (the apiserver's
 * GetOperationIDAndTags), and the operation descriptions of apiextensions' builder.
 */

/** The definition name of group/version/kind: "stable.example.com", "v1", "CronTab" -> "com.example.stable.v1.CronTab". */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

/**
 * kube-openapi's ToValidOperationID: keeps letters, '_' and (past the first character) digits,
 * capitalising the letter after any dropped character (and the first one when asked).
 */
export function toValidOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const ch of s) {
    const letter = /\p{L}/u.test(ch);
    if (letter || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
    i++;
  }
  return out;
}

/** The operation verbs the apiserver's namer recognises; the shortest one prefixing a route's operation wins. */
const operationVerbs = ['get', 'log', 'read', 'replace', 'patch', 'delete', 'deletecollection', 'watch', 'connect', 'proxy', 'list', 'create'];

function verbPrefix(operation: string): string | undefined {
  let best: string | undefined;
  for (const v of operationVerbs) if (operation.startsWith(v) && (best === undefined || v.length < best.length)) best = v;
  return best;
}

/** The tag of a group version: "stable.example.com", "v1" -> "stableExampleCom_v1" (".k8s.io" dropped, core as "core"). */
export function operationTag(group: string, version: string): string {
  return `${toValidOperationId((group || 'core').replace(/\.k8s\.io$/, ''), false)}_${toValidOperationId(version, false)}`;
}

/**
 * The operation id kube publishes for a route's operation in group/version:
 * "listNamespacedCronTab" in stable.example.com/v1 -> "listStableExampleComV1NamespacedCronTab".
 */
export function operationId(operation: string, group: string, version: string): string {
  const prefix = verbPrefix(operation);
  if (prefix === undefined) return operation;
  const gv = toValidOperationId((group || 'core').replace(/\.k8s\.io$/, ''), true) + toValidOperationId(version, true);
  return prefix + gv + toValidOperationId(operation.slice(prefix.length), true);
}

/** The apiserver's GetArticleForNoun with " " padding: none for a plural ("...s" but not "...ss"), " an " before a vowel, else " a ". */
export function articleFor(noun: string): string {
  if (noun.endsWith('s') && !noun.endsWith('ss')) return ' ';
  return /^[aeiouAEIOU]/.test(noun) ? ' an ' : ' a ';
}

/**
 * The description apiextensions' builder gives an operation: operationVerb is one of list, read,
 * replace, patch, create, delete, deletecollection; subresource is "" for the resource itself.
 */
export function operationDescription(operationVerb: string, kind: string, subresource: string): string {
  const article = operationVerb === 'list' ? ' objects of kind ' : operationVerb === 'read' || operationVerb === 'replace' || operationVerb === 'patch' ? ' the specified ' : operationVerb === 'create' || operationVerb === 'delete' ? articleFor(kind) : '';
  const sub = subresource ? ` ${subresource} of` : '';
  if (operationVerb === 'patch') return `partially update${sub}${article}${kind}`;
  if (operationVerb === 'deletecollection') return `delete collection of${sub ? `${sub} a` : ''} ${kind}`;
  return `${operationVerb}${sub}${article}${kind}`;
}
