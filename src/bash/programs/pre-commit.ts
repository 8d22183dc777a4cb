import type { CommandView, EffectsResult } from '../types.js';
import { each, NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has } from './options.js';
import { everyOption, type ProgramSpec, parseCommand, readOnly, type SubcommandSpec } from './program.js';
import { checkProgram } from './read-only.js';
import { syntheticWord } from './words.js';

/**
 * pre-commit 3, as `pre-commit --help` and `pre-commit <command> --help` list its options (argparse: a unique
 * prefix of a long option names it). `run`, `try-repo`, `install-hooks` and the bare command install and run
 * the hooks a configuration names (code from other repositories); `install`, `autoupdate`, `migrate-config`,
 * `clean` and `gc` write. The validators only parse the files they are given (the configuration by default).
 */
const COLOR = grammar({ flags: 'h', long: 'color= help/h' });

const validator: SubcommandSpec = { grammar: COLOR, readOnly: readOnly(() => everyOption(COLOR), 'files') };
const HELP = grammar({ flags: 'h', long: 'help/h' });

/** Every command, so that one not listed as a read is not taken for an operand. */
const OTHERS =
  'autoupdate clean gc init-templatedir install install-hooks migrate-config run try-repo uninstall hook-impl';
const ANY: SubcommandSpec = { grammar: grammar({ flags: 'h', long: 'help/h', unlistedFlags: /./ }) };

const spec: ProgramSpec = {
  name: 'pre-commit',
  grammar: grammar({ flags: 'hV', long: 'help/h version/V' }),
  // Without a command pre-commit runs the hooks; `-h` and `-V` print and exit.
  readOnly: readOnly('h V', 'none', {
    check: (parsed) => (has(parsed, 'h', 'V') ? undefined : 'pre-commit without a command runs the hooks'),
  }),
  subcommands: {
    'validate-config': validator,
    'validate-manifest': validator,
    'sample-config': { grammar: COLOR, readOnly: readOnly(() => everyOption(COLOR), 'none') },
    help: { grammar: HELP, readOnly: readOnly('h', 'inert', { maxOperands: 1 }) },
    ...Object.fromEntries(OTHERS.split(' ').map((name) => [name, ANY])),
  },
};

/** The files a validator reads: those named, or the configuration (the hooks manifest) in the working folder. */
function effects(cmd: CommandView): EffectsResult {
  if (!checkProgram(spec, cmd.argv, true).readOnly) return UNKNOWN;
  const parsed = parseCommand(spec, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  const validates =
    last.name === 'pre-commit validate-config' || last.name === 'pre-commit validate-manifest';
  if (!validates || has(last.parsed, 'h')) return NONE;
  const files = last.parsed.operands.map((index) => cmd.argv[index]!);
  if (files.length) return { effects: each('read', files), known: true };
  const name = last.name.endsWith('config') ? '.pre-commit-config.yaml' : '.pre-commit-hooks.yaml';
  return { effects: each('read', [syntheticWord(name, cmd.argv[last.index]!.span)]), known: true };
}

export const PRE_COMMIT_MODULE: ProgramModule = {
  names: ['pre-commit'],
  spec,
  effects,
  oracle: {
    cases: [
      'pre-commit --version',
      'pre-commit -h',
      'pre-commit help',
      'pre-commit help run',
      'pre-commit validate-config',
      'pre-commit validate-config .pre-commit-config.yaml',
      'pre-commit validate-manifest --color never',
      'pre-commit sample-config',
      'pre-commit run --all-files',
      'pre-commit install',
    ],
  },
};
