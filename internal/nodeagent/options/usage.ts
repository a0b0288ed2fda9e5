/** The node agent's --help text, laid out as pflag prints kubelet's. */
import { flagTable, type FlagType } from './flag-table.js';

const typeWord: Record<FlagType, string> = {
  string: 'string',
  bool: '',
  int: 'int32',
  duration: 'duration',
  strings: 'strings',
  quantity: 'string',
  langleMap: 'mapStringString',
  equalsMap: 'mapStringString',
  labels: 'mapStringString',
  taints: 'taint',
  headers: 'colonSeparatedMultimapStringString',
  level: 'Level',
};

/** The usage text (what --help prints). */
export function usageText(): string {
  const rows = flagTable.map((d) => {
    const head = `${d.short ? `-${d.short}, ` : '    '}--${d.name}${typeWord[d.type] ? ` ${typeWord[d.type]}` : ''}`;
    return [head, d.help] as const;
  });
  const width = Math.max(...rows.map(([h]) => h.length)) + 3;
  const lines = rows.map(([h, help]) => `  ${h.padEnd(width)}${help}`);
  return [
    'The kubelet is the primary "node agent" that runs on each node. This is Capstan\'s node agent:',
    'it registers the node with the API server, runs the pods bound to it (and static pods) through a',
    'CRI runtime, keeps their status, and serves the kubelet API. Flags are kubelet 1.33\'s.',
    '',
    'Usage:',
    '  capstan-nodeagent [flags]',
    '',
    'Flags:',
    ...lines,
    '',
  ].join('\n');
}
