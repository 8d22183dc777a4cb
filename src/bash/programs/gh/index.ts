import type { CommandView, EffectsResult, NestedSpec } from '../../types.js';
import { each, NONE, UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { optionsNamed } from '../options.js';
import { type ParsedCommand, parseCommand } from '../program.js';
import { codeSpec, unresolved } from '../specs.js';
import { GH_SPEC, helpName } from './spec.js';

function parseGh(cmd: CommandView): ParsedCommand | undefined {
  const parsed = parseCommand(GH_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  return parsed.ok ? parsed : undefined;
}

/** `pr list`, `repo deploy-key list`: the command a parse names, or '' for gh itself. */
function commandPath(parsed: ParsedCommand): string {
  return parsed.levels.at(-1)!.name.split(' ').slice(1).join(' ');
}

/** Commands that only print from gh's own tables (usage, version) or its own configuration. */
const LOCAL = new Set(['', 'help', 'version', 'config get', 'config list', 'alias list', 'completion']);

/**
 * The files a gh command touches here. The reads (`pr list`, `api` as a GET, `--help`) touch none but gh's own
 * configuration and state, which it keeps to do its job (`attestation verify` reads the artifact, the bundle and
 * the trusted root it names); the others (`release download`, `gist create FILE`,
 * `api --input`, `secret set --env-file`, `repo clone`) are not modelled.
 */
function ghEffects(cmd: CommandView): EffectsResult {
  const parsed = parseGh(cmd);
  if (!parsed || parsed.unknownSubcommand) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  const help = helpName(last.spec.grammar);
  if (last.parsed.options.some((found) => found.name === help)) return NONE;
  const path = commandPath(parsed);
  if (path === 'attestation verify' || path === 'attestation inspect') {
    const artifacts = last.parsed.operands.map((i) => cmd.argv[i]!);
    const named = optionsNamed(last.parsed, 'b', '--custom-trusted-root').map((found) => found.value!);
    const known = last.parsed.unknown.length === 0 && last.parsed.suspects.length === 0;
    return { effects: each('read', [...artifacts, ...named]), known };
  }
  if (LOCAL.has(path) || last.spec.serviceRead) return NONE;
  return UNKNOWN;
}

/**
 * What gh runs besides itself: an extension (`gh NAME` for a command gh lacks runs `gh-NAME`) or an alias from
 * its configuration (which may run a shell), `extension exec`, and the commands that run git or ssh for the
 * user (`repo clone`, `pr checkout`, `codespace ssh`).
 */
function ghNested(cmd: CommandView): NestedSpec[] {
  const parsed = parseCommand(GH_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return [unresolved(`gh: ${parsed.reason}`, parsed.span)];
  const unknown = parsed.unknownSubcommand;
  if (unknown) {
    if (!unknown.word.static) return [unresolved('gh subcommand only known at run time', unknown.word)];
    if (parsed.levels.length > 1) return [];
    const plugin = `gh-${unknown.word.value}`;
    return [codeSpec('program-option', 'gh', plugin, unknown.word, plugin)];
  }
  const path = commandPath(parsed);
  const last = parsed.levels.at(-1)!;
  if (RUNS.has(path)) return [codeSpec('program-option', 'gh', `gh ${path}`, cmd.argv[last.index]!)];
  return [];
}

const RUNS = new Set([
  'extension exec',
  'extension install',
  'extension upgrade',
  'repo clone',
  'repo fork',
  'gist clone',
  'pr checkout',
  'issue develop',
  'codespace ssh',
  'codespace cp',
  'codespace code',
  'codespace jupyter',
  'auth setup-git',
]);

/** gh talks to GitHub for every command but those that print its own tables and configuration. */
function ghNetwork(cmd: CommandView): boolean {
  const parsed = parseGh(cmd);
  if (!parsed || parsed.unknownSubcommand) return true;
  const last = parsed.levels.at(-1)!;
  const help = helpName(last.spec.grammar);
  if (last.parsed.options.some((found) => found.name === help || found.name === '--version')) return false;
  return !LOCAL.has(commandPath(parsed));
}

export const GH: ProgramModule = {
  names: ['gh'],
  spec: GH_SPEC,
  effects: ghEffects,
  nested: ghNested,
  network: ghNetwork,
  oracle: {
    cases: [
      'gh --version',
      'gh version',
      'gh -h',
      'gh help pr',
      'gh pr list --help',
      'gh api --help',
      'gh config list',
      'gh config get git_protocol',
      'gh alias list',
      'gh foo',
    ],
  },
};
