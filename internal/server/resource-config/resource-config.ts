/**
 * Which group versions and resources are enabled (kube's serverstorage.ResourceConfig): a
 * preference per group version, and per resource where one was given. A resource with a
 * preference of its own follows it; any other follows its version; a version with no preference
 * is off. Built once at start (defaults, then --runtime-config) and read only afterwards.
 */

/** A group and version; the core group is "". */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** "group/version", or "version" for the core group (apimachinery's GroupVersion.String). */
export function groupVersionString(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

function gvKey(group: string, version: string): string {
  return `${group}/${version}`;
}

function gvrKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** A mutable enablement table; the server reads it through resourceEnabled. */
export class ResourceConfig {
  private readonly versions = new Map<string, { gv: GroupVersion; enabled: boolean }>();
  private readonly resources = new Map<string, { gv: GroupVersion; resource: string; enabled: boolean }>();

  /** Turns the versions on (kube's EnableVersions: any resource preference of theirs is kept). */
  enableVersions(...gvs: GroupVersion[]): void {
    for (const gv of gvs) this.versions.set(gvKey(gv.group, gv.version), { gv, enabled: true });
  }

  /** Turns the versions off (kube's DisableVersions). */
  disableVersions(...gvs: GroupVersion[]): void {
    for (const gv of gvs) this.versions.set(gvKey(gv.group, gv.version), { gv, enabled: false });
  }

  /**
   * Sets every version that has a preference and matches (api/all, api/ga, api/beta, api/alpha),
   * dropping the resource preferences of those versions. Versions without a preference are untouched.
   */
  setMatchingVersions(match: (gv: GroupVersion) => boolean, enabled: boolean): void {
    for (const entry of this.versions.values()) {
      if (!match(entry.gv)) continue;
      entry.enabled = enabled;
      this.dropResourcePreferences(entry.gv);
    }
  }

  /** group/version=true|false: sets the version and drops its resources' preferences. */
  setVersionExplicitly(gv: GroupVersion, enabled: boolean): void {
    this.versions.set(gvKey(gv.group, gv.version), { gv, enabled });
    this.dropResourcePreferences(gv);
  }

  /** group/version/resource=true|false (or a default resource preference). */
  setResource(gv: GroupVersion, resource: string, enabled: boolean): void {
    this.resources.set(gvrKey(gv.group, gv.version, resource), { gv, resource, enabled });
  }

  /** Whether the version itself is on (its resources may still be turned off one by one). */
  versionEnabled(group: string, version: string): boolean {
    return this.versions.get(gvKey(group, version))?.enabled ?? false;
  }

  /** Whether the resource is served in this group version. */
  resourceEnabled(group: string, version: string, resource: string): boolean {
    const own = this.resources.get(gvrKey(group, version, resource));
    if (own) return own.enabled;
    return this.versionEnabled(group, version);
  }

  private dropResourcePreferences(gv: GroupVersion): void {
    for (const [key, r] of this.resources) {
      if (r.gv.group === gv.group && r.gv.version === gv.version) this.resources.delete(key);
    }
  }
}
