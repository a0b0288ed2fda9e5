/**
 * CertificateSigningRequest rules (kube's pkg/registry/certificates/certificates): the requester
 * (username, uid, groups, extra) comes from the request's user, never from the body; status
 * starts empty; the main resource changes neither spec nor status; certificatesigningrequests/
 * status writes only status, keeping Approved and Denied conditions; certificatesigningrequests/
 * approval writes only status.conditions. Condition timestamps are filled in as kube does.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { metaTime } from '../../generic/object-meta.js';
import type { SelectableFields, StatusStrategy } from '../../generic/strategy.js';
import { arrayAt, asObject, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateCSR, validateCSRUpdate } from './validation.js';

/** certificates/v1's field label conversion: spec.signerName besides metadata.name. */
export const csrSelectableFields: SelectableFields = {
  extra: ['spec.signerName'],
  style: 'core',
  values: (obj) => ({ 'spec.signerName': stringAt(asObject(obj.spec), 'signerName') }),
};

function conditions(obj: KubeObject): JsonObject[] {
  return arrayAt(asObject(obj.status), 'conditions').map((c) => asObject(c) ?? {});
}

/** populateConditionTimestamps: lastUpdateTime now, lastTransitionTime kept from a same type/status condition or now. */
function populateConditionTimestamps(obj: KubeObject, old: KubeObject): void {
  const now = metaTime();
  for (const c of conditions(obj)) {
    if (!c.lastUpdateTime) c.lastUpdateTime = now;
    if (!c.lastTransitionTime) {
      const prev = conditions(old).find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime);
      c.lastTransitionTime = prev ? prev.lastTransitionTime : now;
    }
  }
}

/** preserveConditionInstances: old's conditions of type t replace new's. */
function preserveConditions(obj: KubeObject, old: KubeObject, type: string): void {
  const status = (asObject(obj.status) ?? (obj.status = {})) as JsonObject;
  const kept = conditions(obj).filter((c) => c.type !== type);
  const fromOld = conditions(old).filter((c) => c.type === type).map((c) => structuredClone(c));
  const next = [...kept, ...fromOld];
  if (next.length > 0) status.conditions = next;
  else delete status.conditions;
}

/** The CertificateSigningRequest strategy. */
export const csrStrategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  nameValidation: 'path-segment',
  selectableFields: csrSelectableFields,
  prepareForCreate(ctx, obj) {
    const spec = (asObject(obj.spec) ?? (obj.spec = {})) as JsonObject;
    for (const f of ['username', 'uid', 'groups', 'extra']) delete spec[f];
    const user = ctx.user;
    if (user.name) spec.username = user.name;
    if (user.uid) spec.uid = user.uid;
    if (user.groups.length > 0) spec.groups = [...user.groups];
    if (user.extra && Object.keys(user.extra).length > 0) spec.extra = structuredClone(user.extra);
  },
  prepareForUpdate(_ctx, obj, old) {
    obj.spec = structuredClone(old.spec);
  },
  validate: validateCSR,
  validateUpdate: validateCSRUpdate,
});

/** certificatesigningrequests/status: status only, Approved and Denied conditions as they were. */
export const csrStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    obj.spec = structuredClone(old.spec);
    preserveConditions(obj, old, 'Approved');
    preserveConditions(obj, old, 'Denied');
    populateConditionTimestamps(obj, old);
  },
  validateUpdate(_ctx, obj, old) {
    return validateCSRUpdate(obj, old);
  },
};

/** certificatesigningrequests/approval: only status.conditions change. */
export const csrApprovalStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    obj.spec = structuredClone(old.spec);
    const next = structuredClone(asObject(old.status) ?? {});
    const newConditions = asObject(obj.status)?.conditions;
    if (newConditions === undefined) delete next.conditions;
    else next.conditions = structuredClone(newConditions);
    obj.status = next;
    populateConditionTimestamps(obj, old);
  },
  validateUpdate(_ctx, obj, old) {
    return validateCSRUpdate(obj, old);
  },
};
