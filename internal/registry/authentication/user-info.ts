/**
 * authentication.k8s.io/v1 UserInfo as kube writes it in TokenReview and SelfSubjectReview status:
 * username, uid, groups and extra, each left out when empty.
 */
import type { UserInfo } from '../../request/context.js';

/** The v1 UserInfo of user (a new object; user is not changed). */
export function userInfoJSON(user: UserInfo): Record<string, unknown> {
  const extra = user.extra ?? {};
  const hasExtra = Object.keys(extra).length > 0;
  return {
    ...(user.name ? { username: user.name } : {}),
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
    ...(hasExtra ? { extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]])) } : {}),
  };
}
