/**
 * PriorityLevelConfiguration rules (kube's pkg/registry/flowcontrol/prioritylevelconfiguration):
 * type Exempt or Limited with the matching section only, a limit response that queues (with a
 * queuing configuration) or rejects, shares and percentages in range; generation tracking;
 * status written only through prioritylevelconfigurations/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { forbidden, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

const types = ['Exempt', 'Limited'];
const limitResponseTypes = ['Queue', 'Reject'];

function validatePercent(o: JsonObject | undefined, path: string): FieldError[] {
  const v = numberAt(o, 'lendablePercent');
  return v !== undefined && (v < 0 || v > 100) ? [invalid(`${path}.lendablePercent`, v, 'must be between 0 and 100, inclusive')] : [];
}

/** ValidatePriorityLevelConfigurationSpec without metadata. Never mutates. */
export function validatePriorityLevelConfiguration(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const type = stringAt(spec, 'type');
  const limited = objectAt(spec, 'limited');
  const exempt = objectAt(spec, 'exempt');
  if (obj.metadata.name === 'exempt' && type !== 'Exempt') errs.push(invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  if (type === 'Exempt') {
    if (limited) errs.push(forbidden('spec.limited', "must be nil if the type is not Limited"));
    if (exempt) {
      const shares = numberAt(exempt, 'nominalConcurrencyShares');
      if (shares !== undefined && shares < 0) errs.push(invalid('spec.exempt.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
      errs.push(...validatePercent(exempt, 'spec.exempt'));
    }
  } else if (type === 'Limited') {
    if (exempt) errs.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
    if (!limited) errs.push(required('spec.limited', 'must not be empty when type is Limited'));
    else {
      const shares = numberAt(limited, 'nominalConcurrencyShares');
      if (shares !== undefined && shares < 0) errs.push(invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
      errs.push(...validatePercent(limited, 'spec.limited'));
      const borrowing = numberAt(limited, 'borrowingLimitPercent');
      if (borrowing !== undefined && borrowing < 0) errs.push(invalid('spec.limited.borrowingLimitPercent', borrowing, 'if specified, must be a non-negative integer'));
      const response = objectAt(limited, 'limitResponse');
      const rType = stringAt(response, 'type');
      if (!limitResponseTypes.includes(rType)) errs.push(notSupported('spec.limited.limitResponse.type', rType, limitResponseTypes));
      const queuing = objectAt(response, 'queuing');
      if (rType === 'Queue' && !queuing) errs.push(required('spec.limited.limitResponse.queuing', 'must not be empty if limited.limitResponse.type is Queue'));
      if (rType === 'Reject' && queuing) errs.push(forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
      if (queuing) {
        const queues = numberAt(queuing, 'queues') ?? 0;
        const handSize = numberAt(queuing, 'handSize') ?? 0;
        const qll = numberAt(queuing, 'queueLengthLimit') ?? 0;
        if (qll <= 0) errs.push(invalid('spec.limited.limitResponse.queuing.queueLengthLimit', qll, 'must be positive'));
        if (queues <= 0) errs.push(invalid('spec.limited.limitResponse.queuing.queues', queues, 'must be positive'));
        if (handSize <= 0) errs.push(invalid('spec.limited.limitResponse.queuing.handSize', handSize, 'must be positive'));
        else if (handSize > queues) {
          errs.push(invalid('spec.limited.limitResponse.queuing.handSize', handSize, `should not be greater than queues (${queues})`));
        }
      }
    }
  } else {
    errs.push(notSupported('spec.type', type, types));
  }
  return errs;
}

/** The PriorityLevelConfiguration strategy. */
export const priorityLevelConfigurationStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  hasStatus: true,
  validate: validatePriorityLevelConfiguration,
});

/**
 * flowcontrol/v1 defaulting: nominalConcurrencyShares 30 (0 for exempt) and lendablePercent 0,
 * and a queuing configuration of 8 hands, 64 queues and 50 queued requests. Mutates obj.
 */
export function defaultPriorityLevelConfiguration(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  const setIfNil = (o: JsonObject, k: string, v: unknown): void => {
    if (o[k] === undefined || o[k] === null) o[k] = v;
  };
  const setIfZero = (o: JsonObject, k: string, v: unknown): void => {
    if (o[k] === undefined || o[k] === null || o[k] === 0) o[k] = v;
  };
  const limited = objectAt(spec, 'limited');
  if (limited) {
    setIfNil(limited, 'nominalConcurrencyShares', 30);
    setIfNil(limited, 'lendablePercent', 0);
    const queuing = objectAt(objectAt(limited, 'limitResponse'), 'queuing');
    if (queuing) {
      setIfZero(queuing, 'handSize', 8);
      setIfZero(queuing, 'queues', 64);
      setIfZero(queuing, 'queueLengthLimit', 50);
    }
  }
  const exempt = objectAt(spec, 'exempt');
  if (exempt) {
    setIfNil(exempt, 'nominalConcurrencyShares', 0);
    setIfNil(exempt, 'lendablePercent', 0);
  }
}
