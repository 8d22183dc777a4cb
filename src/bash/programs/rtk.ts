import type { CommandView, NestedSpec, Word } from '../types.js';
import type { ProgramModule } from './module.js';
import { grammar, has, operandWords, parseOptions } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';
import { argvSpec, type Handler, parseFailure, unresolved } from './specs.js';
import { is } from './words.js';

/**
 * rtk, a CLI proxy that runs a command and filters its output for a model's context, as its own source declares
 * it (github:rtk-ai/rtk, src/main.rs: the clap `Cli` and `Commands`, `run_fallback`; core/tracking.rs,
 * core/telemetry.rs, core/toml_filter.rs).
 *
 * What it runs:
 * - `rtk proxy CMD ARGS…` runs CMD with ARGS, unfiltered.
 * - A first word that is not one of its subcommands fails clap's parse, and `run_fallback` runs the whole line as
 *   a command (`rtk cat README.md` runs `cat README.md`, `rtk head -5` runs `head -5`).
 * - `ls`, `tree`, `wc`, `git`, `docker`, `cargo`, `go`, `gh` and `kubectl` run the program of that name with the
 *   words given (their `Other` passthrough, or a filtered subcommand of the same words), adding only options that
 *   shape output (`ls -la`, `tree -I PATTERN`, `git log --pretty=… -10`, `git status --porcelain -b`, `go test
 *   -json`, `docker logs --tail`); `rtk git` passes its own `-C`, `-c`, `--git-dir`… to git in front. `rtk git
 *   add` with no path adds `.`: asked. `rtk kubectl pods` (`kubectl get pods`) is read as kubectl reads `pods`:
 *   asked.
 * Each command it runs is decided as that command; every other subcommand (`read`, `grep`, `find`, `run -c`,
 * the package managers, `init`, which edits agent settings, `trust`, `rewrite`, `hook`…) is not known and asks.
 *
 * What it touches besides: every run records the command in its own history database under the user's data
 * folder (`RTK_DB_PATH` moves it: an assignment on the line is not harmless, so such a line asks), may write the
 * raw output of a failed command there (tee), and, in builds with a telemetry address and when the user has not
 * turned it off, sends one usage ping a day. Output filters come from its built-in set, the user's config and a
 * project's `.rtk/filters.toml` only once the user trusted that file's hash (`rtk trust`); a filter rewrites
 * output text, never what runs. `rtk gain` reads the history database; `--reset` empties it.
 *
 * The effect oracle does not run rtk: it is not installed in the canary world.
 */

const GLOBAL = 'verbose/v ultra-compact skip-env help/h version/V';

const GAIN = grammar({
  flags: 'pgHqdwmaF',
  values: 'tf',
  long: 'project/p graph/g history/H quota/q tier=/t daily/d weekly/w monthly/m all/a format=/f failures/F reset yes',
  abbreviate: false,
});

const spec: ProgramSpec = {
  name: 'rtk',
  grammar: grammar({ flags: 'vhV', long: GLOBAL, abbreviate: false }),
  permute: false,
  subcommands: {
    // clap's `help [COMMAND…]` prints usage.
    help: { grammar: grammar({ abbreviate: false }), readOnly: readOnly('', 'inert') },
    gain: {
      grammar: GAIN,
      permute: true,
      readOnly: readOnly(() => everyOptionBut(GAIN, '--reset --yes'), 'none'),
    },
  },
};

/** Programs an rtk subcommand of the same name runs with the words it is given. */
const SAME_PROGRAM = new Set(['ls', 'tree', 'wc', 'git', 'docker', 'cargo', 'go', 'gh', 'kubectl']);

/** rtk's own subcommands (the releases' `Commands`): any other first word is run as a command. */
const SUBCOMMANDS = new Set(
  (
    'ls tree read smart git gh glab aws psql pnpm err test json deps env find diff log dotnet docker kubectl oc ' +
    'summary grep rg init wget wc gain cc-economics config jest vitest prisma tsc next lint prettier format ' +
    'playwright cargo npm npx curl discover session telemetry learn run proxy pipe trust untrust verify ruff ' +
    'pytest mypy php phpunit phpstan pest paratest ecs pint rake rubocop rspec pip uv go gt golangci-lint ' +
    'gradlew mvn hook-audit rewrite hook help'
  ).split(' '),
);

/** Subcommands that run no other program: decided by the spec (`gain` read-only), else unknown. */
const OWN = new Set(['gain', 'help', 'config', 'session', 'discover', 'cc-economics', 'hook-audit']);

const GIT_GLOBAL = grammar({
  flags: '',
  values: 'Cc',
  long: 'git-dir= work-tree= no-pager no-optional-locks bare literal-pathspecs',
  abbreviate: false,
});

/** `rtk git [-C DIR] [-c K=V] … SUB ARGS`: git with those words; `add` alone adds `.`. */
function rtkGit(cmd: CommandView, words: Word[]): NestedSpec[] {
  const parsed = parseOptions(words, 1, GIT_GLOBAL);
  if (!parsed.ok) return [parseFailure('rtk git', parsed)];
  const operands = operandWords(words, parsed);
  if (is(operands[0], 'add') && operands.length === 1)
    return [unresolved('rtk git add without a path adds every file', operands[0]!)];
  if (operands.length === 0) return [unresolved('rtk git without a subcommand', cmd.argv[0]!)];
  return [argvSpec(words, 'rtk')];
}

function nested(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, spec.grammar);
  if (!parsed.ok) return [parseFailure('rtk', parsed)];
  if (has(parsed, '--help', '--version')) return [];
  const rest = cmd.argv.slice(parsed.rest);
  const first = rest[0];
  if (!first) return [];
  if (!first.static) return [unresolved('rtk: the subcommand is only known at run time', first)];
  if (first.value === 'proxy') {
    const command = rest.slice(1);
    return command.length ? [argvSpec(command, 'rtk proxy')] : [];
  }
  if (first.value === 'git') return rtkGit(cmd, rest);
  if (SAME_PROGRAM.has(first.value)) return [argvSpec(rest, 'rtk')];
  // The fallback runs the line as given, rtk's own options included.
  if (!SUBCOMMANDS.has(first.value))
    return parsed.rest === 1
      ? [argvSpec(rest, 'rtk')]
      : [unresolved('rtk: options before a command it runs as given', first)];
  if (OWN.has(first.value)) return [];
  return [unresolved(`rtk ${first.value} runs what its own code chooses`, first)];
}

/** rtk: runs the command after it and filters its output. */
export const RTK_MODULE: ProgramModule = {
  names: ['rtk'],
  spec,
  nested: nested satisfies Handler,
};
