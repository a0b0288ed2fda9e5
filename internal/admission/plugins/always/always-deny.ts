/**
 * AlwaysDeny (kube's deprecated plugin of that name): refuses every create, update, delete and
 * connect with 403 "admission control is denying all modifications", in both phases.
 */
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';

/** kube's message. */
export const alwaysDenyMessage = 'admission control is denying all modifications';

/** The AlwaysDeny plugin. */
export class AlwaysDeny implements AdmissionPlugin {
  readonly name = 'AlwaysDeny';

  handles(_operation: AdmissionOperation): boolean {
    return true;
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
    throw admissionForbidden(attrs, alwaysDenyMessage);
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    throw admissionForbidden(attrs, alwaysDenyMessage);
  }
}
