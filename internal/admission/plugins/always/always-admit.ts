/** AlwaysAdmit (kube's deprecated plugin of that name): admits every request; it exists for configurations that name it. */
import type { AdmissionOperation, AdmissionPlugin } from '../../interface.js';

/** The AlwaysAdmit plugin: handles nothing, so it costs nothing. */
export class AlwaysAdmit implements AdmissionPlugin {
  readonly name = 'AlwaysAdmit';

  handles(_operation: AdmissionOperation): boolean {
    return false;
  }
}
