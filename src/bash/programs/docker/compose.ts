import type { CommandView, EffectsResult, NestedSpec } from '../../types.js';
import { option, UNKNOWN } from '../effect-helpers.js';
import type { ProgramModule } from '../module.js';
import { lastValue } from '../options.js';
import { parsePflag } from '../pflag.js';
import { codeSpec, unresolved } from '../specs.js';
import { is } from '../words.js';
import { DOCKER_COMPOSE_SPEC } from './plugins.js';

/**
 * The standalone `docker-compose`: the commands its spec lists (ps, logs, config, …) run nothing but compose
 * itself; any other (up, run, exec, build, …) runs the project's services, code the command line does not show.
 */
function composeNested(cmd: CommandView): NestedSpec[] {
  const parsed = parsePflag(DOCKER_COMPOSE_SPEC, cmd.argv);
  if (!parsed) return [unresolved('docker-compose: options it cannot read', cmd.argv[0]!)];
  const unknown = parsed.unknownSubcommand;
  if (!unknown) return [];
  if (!unknown.word.static)
    return [unresolved('docker-compose command only known at run time', unknown.word)];
  return [codeSpec('program-option', 'docker-compose', `docker-compose ${unknown.word.value}`, unknown.word)];
}

/** The compose files, env files and project folder it reads; the effects of a command it may run are unknown. */
function composeEffects(cmd: CommandView): EffectsResult {
  const parsed = parsePflag(DOCKER_COMPOSE_SPEC, cmd.argv);
  if (!parsed || parsed.unknownSubcommand || parsed.levels.length < 2) return UNKNOWN;
  if (parsed.levels.some((level) => level.parsed.unknown.length || level.parsed.suspects.length))
    return UNKNOWN;
  const effects = [];
  for (const found of parsed.levels[0]!.parsed.options) {
    if (!['f', '--env-file', '--project-directory'].includes(found.name)) continue;
    if (found.value && !is(found.value, '-')) effects.push(option('read', found.value));
  }
  const last = parsed.levels.at(-1)!;
  const output = last.name === 'docker-compose config' ? lastValue(last.parsed, 'o') : undefined;
  if (output) effects.push(option('write', output));
  return { effects, known: true };
}

export const DOCKER_COMPOSE: ProgramModule = {
  names: ['docker-compose'],
  spec: DOCKER_COMPOSE_SPEC,
  effects: composeEffects,
  nested: composeNested,
  // The daemon over its local socket; a compose file's remote includes (git, OCI) over the network.
  network: () => true,
  oracle: {
    cases: [
      'docker-compose ps',
      'docker-compose -f compose.yml --env-file .env ps',
      'docker-compose logs --tail 5 web',
      'docker-compose config --services',
      'docker-compose config -o .git/hooks/pre-commit',
      'docker-compose up -d',
    ],
  },
};
