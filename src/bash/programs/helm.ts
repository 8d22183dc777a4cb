import type { CommandView, NestedSpec, Word } from '../types.js';
import { UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { type ProgramSpec, parseCommand, type SubcommandSpec } from './program.js';
import { codeIn, codeSpec, unresolved } from './specs.js';
import { is, leadingText, sliceWord } from './words.js';

/** Cobra: exact long names, anywhere on the line. Only the global options are listed: a command's own are not. */
const ANY = grammar({ long: 'help', abbreviate: false });

function commands(names: string): Record<string, SubcommandSpec> {
  const subcommands: Record<string, SubcommandSpec> = {};
  for (const name of names.split(' ')) subcommands[name] = { grammar: ANY };
  return subcommands;
}

export const HELM_SPEC: ProgramSpec = {
  name: 'helm',
  grammar: grammar({
    flags: 'h',
    values: 'n',
    long:
      'burst-limit= debug kube-apiserver= kube-as-group= kube-as-user= kube-ca-file= kube-context= ' +
      'kube-insecure-skip-tls-verify kube-tls-server-name= kube-token= kubeconfig= namespace=/n qps= ' +
      'registry-config= repository-cache= repository-config= help/h',
    abbreviate: false,
  }),
  subcommands: commands(
    'completion create dependency env get help history install lint list package plugin pull push registry ' +
      'repo rollback search show status template test uninstall upgrade verify version',
  ),
  globalOptionsAnywhere: true,
  subcommandAliases: {
    del: 'uninstall',
    delete: 'uninstall',
    un: 'uninstall',
    ls: 'list',
    dep: 'dependency',
  },
};

/** The value of `--NAME VALUE` / `--NAME=VALUE` wherever it stands (cobra reads options anywhere). */
function optionValues(words: readonly Word[], name: string): Word[] {
  const values: Word[] = [];
  for (const [index, word] of words.entries()) {
    if (is(word, '--')) break;
    const lead = leadingText(word);
    if (lead.startsWith(`${name}=`)) values.push(sliceWord(word, name.length + 1));
    else if (is(word, name) && words[index + 1]) values.push(words[index + 1]!);
  }
  return values;
}

/**
 * What helm runs besides itself: the exec credential plugins of a kubeconfig it is pointed at, a
 * `--post-renderer` program, plugins (`helm NAME` for a command helm lacks, `helm plugin install`).
 */
function helmNested(cmd: CommandView): NestedSpec[] {
  const specs: NestedSpec[] = [
    ...optionValues(cmd.argv, '--kubeconfig').map((file) =>
      codeIn('environment', 'helm', '--kubeconfig', file),
    ),
    ...optionValues(cmd.argv, '--post-renderer').map((file) =>
      codeIn('program-option', 'helm', '--post-renderer', file),
    ),
  ];
  const parsed = parseCommand(HELM_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return [...specs, unresolved(`helm: ${parsed.reason}`, parsed.span)];
  const unknown = parsed.unknownSubcommand;
  if (unknown) {
    if (!unknown.word.static)
      return [...specs, unresolved('helm subcommand only known at run time', unknown.word)];
    const plugin = `helm-${unknown.word.value}`;
    return [...specs, codeSpec('program-option', 'helm', plugin, unknown.word, plugin)];
  }
  const last = parsed.levels.at(-1)!;
  if (last.name === 'helm plugin')
    specs.push(codeSpec('program-option', 'helm', 'helm plugin', cmd.argv[last.index]!));
  return specs;
}

export const HELM: ProgramModule = {
  names: ['helm'],
  spec: HELM_SPEC,
  // The options of helm's commands are not modelled: what it reads and writes (charts, values files,
  // --output-dir, repository and registry configuration) is not listed.
  effects: () => UNKNOWN,
  nested: helmNested,
  oracle: {
    cases: [
      'helm install x ./chart --kubeconfig ./k.yaml',
      'helm template x ./chart --post-renderer ./render.sh',
      'helm template x ./chart --output-dir .git/hooks',
      'helm plugin install ./plugin',
      'helm foo',
    ],
  },
};
