/**
 * flowcontrol.apiserver.k8s.io flowschemas (PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD
 * AGE MISSINGPL) and prioritylevelconfigurations (TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE
 * QUEUELENGTHLIMIT AGE), as kube prints them (its columns are all declared "string").
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { intAt, nameOf, objectAt, objectsAt, optionalString, stringAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

/** flowschemas: MissingPL is the Dangling condition's status, "?" without one. */
export const flowSchemaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('PriorityLevel', 'string', 'The priority level the matching requests go to.'),
    column('MatchingPrecedence', 'string', 'Lower values are matched first.'),
    column('DistinguisherMethod', 'string', 'How the matching requests are split into flows.'),
    ageColumn,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells(fs, now) {
    const spec = objectAt(fs, 'spec');
    const dangling = objectsAt(objectAt(fs, 'status'), 'conditions').find((c) => c.type === 'Dangling');
    return [
      nameOf(fs),
      stringAt(objectAt(spec, 'priorityLevelConfiguration'), 'name'),
      intAt(spec, 'matchingPrecedence'),
      optionalString(objectAt(spec, 'distinguisherMethod'), 'type') ?? '<none>',
      creationAge(fs, now),
      dangling ? stringAt(dangling, 'status') : '?',
    ];
  },
};

/** prioritylevelconfigurations: "<none>" where the level is not Limited or does not queue. */
export const priorityLevelConfigurationPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Type', 'string', 'Exempt or Limited.'),
    column('NominalConcurrencyShares', 'string', "The level's share of the server's concurrency limit."),
    column('Queues', 'string', 'Queues of the level.'),
    column('HandSize', 'string', 'Queues a flow is shuffle-sharded over.'),
    column('QueueLengthLimit', 'string', 'Requests one queue may hold.'),
    ageColumn,
  ],
  cells(pl, now) {
    const spec = objectAt(pl, 'spec');
    const limited = objectAt(spec, 'limited');
    const queuing = objectAt(objectAt(limited, 'limitResponse'), 'queuing');
    const none = '<none>';
    return [
      nameOf(pl),
      stringAt(spec, 'type'),
      limited ? intAt(limited, 'nominalConcurrencyShares') : none,
      queuing ? intAt(queuing, 'queues') : none,
      queuing ? intAt(queuing, 'handSize') : none,
      queuing ? intAt(queuing, 'queueLengthLimit') : none,
      creationAge(pl, now),
    ];
  },
};
