import { type Grammar, grammar } from '../options.js';
import type { ProgramSpec, SubcommandSpec } from '../program.js';
import { COMMANDS } from './commands.js';
import { GROUP_READ, readOnlyOf, serviceReadOf } from './reads.js';

/** The options every kubectl command reads, before or after its name (`kubectl options`). */
export const GLOBAL =
  'as= as-group= as-uid= cache-dir= certificate-authority= client-certificate= client-key= cluster= ' +
  'context= disable-compression insecure-skip-tls-verify kubeconfig= log-flush-frequency= ' +
  'match-server-version namespace=/n password= profile= profile-output= request-timeout= server=/s ' +
  'tls-server-name= token= user= username= v=/v vmodule= warnings-as-errors';

/** Cobra and pflag: exact long names, `-h`/`--help` everywhere; a command's own options come first. */
function pflag(own: string): Grammar {
  const entries = `${own} ${GLOBAL} help/h`.split(' ').filter(Boolean);
  let flags = '';
  let values = '';
  const seen = new Set<string>();
  const long: string[] = [];
  for (const entry of entries) {
    const [, name, value, letter] = /^([\w.-]+)(=?)(?:\/(\w))?$/.exec(entry)!;
    if (seen.has(name!)) continue;
    seen.add(name!);
    if (letter && (flags.includes(letter) || values.includes(letter))) {
      long.push(`${name}${value}`);
      continue;
    }
    long.push(entry);
    if (letter && value) values += letter;
    else if (letter) flags += letter;
  }
  return grammar({ flags, values, long: long.join(' '), abbreviate: false });
}

/** Other names of commands, as their help lists them. */
const ALIASES: Readonly<Record<string, Record<string, string>>> = {
  create: {
    cm: 'configmap',
    cj: 'cronjob',
    deploy: 'deployment',
    ing: 'ingress',
    ns: 'namespace',
    pdb: 'poddisruptionbudget',
    pc: 'priorityclass',
    resourcequota: 'quota',
    svc: 'service',
    sa: 'serviceaccount',
  },
  set: { sa: 'serviceaccount' },
  top: { nodes: 'node', no: 'node', pods: 'pod', po: 'pod' },
  config: { use: 'use-context' },
};

function tree(): Record<string, SubcommandSpec> {
  const root: Record<string, SubcommandSpec> = {};
  const paths = Object.keys(COMMANDS);
  for (const path of paths) {
    const words = path.split(' ');
    let level = root;
    for (const [k, word] of words.entries()) {
      const prefix = words.slice(0, k + 1).join(' ');
      const group = paths.some((other) => other.startsWith(`${prefix} `));
      const read = readOnlyOf(prefix);
      const serviceRead = serviceReadOf(prefix);
      level[word] ??= {
        grammar: pflag(COMMANDS[prefix] ?? ''),
        ...(group ? { subcommands: {}, subcommandAliases: ALIASES[prefix] ?? {} } : {}),
        ...(group ? { readOnly: GROUP_READ } : read ? { readOnly: read } : {}),
        ...(serviceRead ? { serviceRead } : {}),
      };
      level = (level[word]!.subcommands ?? {}) as Record<string, SubcommandSpec>;
    }
  }
  return root;
}

let commands: Record<string, SubcommandSpec> | undefined;

export const KUBECTL_SPEC: ProgramSpec = {
  name: 'kubectl',
  grammar: pflag(''),
  globalOptionsAnywhere: true,
  readOnly: GROUP_READ,
  // Built at the first kubectl command, not when the module loads.
  get subcommands() {
    commands ??= tree();
    return commands;
  },
};
