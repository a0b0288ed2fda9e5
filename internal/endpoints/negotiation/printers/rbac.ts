/**
 * rbac.authorization.k8s.io rolebindings and clusterrolebindings: ROLE AGE, and wide USERS GROUPS
 * SERVICEACCOUNTS. Roles and clusterroles have no printer in kube (the default Name and
 * Created At columns), and so none here.
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { nameOf, objectAt, objectsAt, stringAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

/** A binding printer; scope names the kind in the column descriptions. */
function bindingPrinter(scope: string): TablePrinter {
  return {
    columns: [
      nameColumn,
      column('Role', 'string', `The role the ${scope} grants, as Kind/name.`),
      ageColumn,
      column('Users', 'string', `Users the ${scope} grants the role to.`, 1),
      column('Groups', 'string', `Groups the ${scope} grants the role to.`, 1),
      column('ServiceAccounts', 'string', `Service accounts the ${scope} grants the role to, as namespace/name.`, 1),
    ],
    cells(binding, now) {
      const roleRef = objectAt(binding, 'roleRef');
      const users: string[] = [];
      const groups: string[] = [];
      const serviceAccounts: string[] = [];
      for (const subject of objectsAt(binding, 'subjects')) {
        const name = stringAt(subject, 'name');
        switch (stringAt(subject, 'kind')) {
          case 'ServiceAccount':
            serviceAccounts.push(`${stringAt(subject, 'namespace')}/${name}`);
            break;
          case 'User':
            users.push(name);
            break;
          case 'Group':
            groups.push(name);
            break;
        }
      }
      return [
        nameOf(binding),
        `${stringAt(roleRef, 'kind')}/${stringAt(roleRef, 'name')}`,
        creationAge(binding, now),
        users.join(', '),
        groups.join(', '),
        serviceAccounts.join(', '),
      ];
    },
  };
}

/** rbac.authorization.k8s.io rolebindings. */
export const roleBindingPrinter: TablePrinter = bindingPrinter('role binding');

/** rbac.authorization.k8s.io clusterrolebindings. */
export const clusterRoleBindingPrinter: TablePrinter = bindingPrinter('cluster role binding');
