import type { CommandView, EffectsResult } from '../types.js';
import { NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has } from './options.js';
import {
  type ParsedCommand,
  type ProgramSpec,
  parseCommand,
  readOnly,
  type SubcommandSpec,
} from './program.js';

/**
 * The AWS CDK command line (npm `aws-cdk`), its global options as `cdk --help` lists them (aws-cdk 3.0.0; yargs
 * reads them before or after the command, takes no abbreviation and reads `--no-NAME` of a boolean). A
 * command's own options are not listed: they make the command unknown.
 */
const GLOBAL = grammar({
  flags: 'jvih',
  values: 'acpro',
  long:
    'app=/a build= context=/c plugin=/p trace strict lookups ignore-errors json/j verbose/v debug profile= ' +
    'proxy= ca-bundle-path= ec2creds/i version-reporting path-metadata asset-metadata role-arn=/r staging ' +
    'output=/o notices no-color ci unstable= version help/h',
  abbreviate: false,
});

const COMMANDS =
  'list synth bootstrap gc deploy rollback import watch destroy diff metadata acknowledge notices init migrate ' +
  'context docs doctor refactor version';

/**
 * Only help and the version print and exit: yargs answers `--help`/`-h` (at the top or after a command) and
 * `--version` while it reads the command line, before the CLI reads cdk.json. Every command after that, `cdk
 * version`, `context`, `doctor`, `notices` and `docs` included, first loads the plug-ins cdk.json and ~/.cdk.json
 * name (`"plugin": [...]`: Node modules the project may hold, run with require); `list`, `synth`, `diff` and
 * `metadata` then run the app cdk.json names (the project's code, as `npm run` does); `docs` starts a browser
 * command the configuration can name; `notices` and the others fetch notices and cache them under ~/.cdk.
 */
const HELP = 'only --help, -h or --version prints and exits: every command loads the plug-ins cdk.json names';

function level(names: string): SubcommandSpec {
  return {
    grammar: GLOBAL,
    readOnly: readOnly(names, 'none', {
      check: (parsed) => (parsed.options.length === 1 && has(parsed, ...names.split(' ')) ? undefined : HELP),
    }),
  };
}

let commands: Record<string, SubcommandSpec> | undefined;

const CDK_SPEC: ProgramSpec = {
  name: 'cdk',
  ...level('h --version'),
  permute: false,
  get subcommands() {
    commands ??= Object.fromEntries(COMMANDS.split(' ').map((name) => [name, level('h')]));
    return commands;
  },
  subcommandAliases: { ls: 'list', synthesize: 'synth', ack: 'acknowledge', doc: 'docs' },
};

function printsItself(parsed: ParsedCommand): boolean {
  const last = parsed.levels.at(-1)!;
  return (
    parsed.levels.every((found) => found === last || found.parsed.options.length === 0) &&
    last.parsed.options.length === 1 &&
    last.parsed.operands.length === 0 &&
    has(last.parsed, 'h', '--version')
  );
}

function cdkEffects(cmd: CommandView): EffectsResult {
  const parsed = parseCommand(CDK_SPEC, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return UNKNOWN;
  return printsItself(parsed) ? NONE : UNKNOWN;
}

/** The AWS CDK CLI: its help and version; every other command runs code cdk.json names and reaches AWS. */
export const CDK_MODULE: ProgramModule = {
  names: ['cdk'],
  spec: CDK_SPEC,
  effects: cdkEffects,
  network: (cmd) => cdkEffects(cmd) !== NONE,
  oracle: {
    cases: [
      'cdk --version',
      'cdk --help',
      'cdk -h',
      'cdk deploy --help',
      'cdk ls -h',
      'cdk version',
      'cdk doctor',
    ],
  },
};
