import type { CommandView, NestedSpec } from '../../types.js';
import type { ProgramModule } from '../module.js';
import { lastValue, operandWords } from '../options.js';
import { codeIn, codeSpec, unresolved } from '../specs.js';
import { joinWords, leadingText } from '../words.js';
import { commandPath, dockerEffects, parseDocker, REGISTRY } from './effects.js';
import { isPlugin } from './plugins.js';
import { DOCKER_SPEC } from './spec.js';

/** Commands that run code in a container: the command given after the image (or container), else its default. */
const RUNS = new Set(['container run', 'container create', 'container exec']);

/** Commands that run code the command line does not show: a Dockerfile's RUN steps, a plugin, a service's tasks. */
const HIDDEN = new Set([
  'image build',
  'builder build',
  'plugin install',
  'plugin upgrade',
  'service create',
  'service update',
  'stack deploy',
]);

/**
 * What docker runs besides itself: the code of a container, a CLI plugin (`docker compose` runs
 * `docker-compose`: the read commands of compose and buildx that the spec lists run nothing else), and the
 * programs a configuration names: `--config` points at a config.json whose credsStore, credHelpers and
 * cli-plugins docker runs; `-H ssh://…` runs ssh. The user's own ~/.docker is theirs (its contexts too, which may
 * reach a daemon over ssh as kubectl's contexts reach a cluster): automode asks before anything writes it (a
 * protected path). A context is not a read-only option: only a service read may name one.
 */
function dockerNested(cmd: CommandView): NestedSpec[] {
  const program = cmd.program;
  const parsed = parseDocker(cmd);
  if (!parsed) return [unresolved(`${program}: options it cannot read`, cmd.argv[0]!)];
  const specs: NestedSpec[] = [];
  const global = parsed.levels[0]!.parsed;
  const config = lastValue(global, '--config');
  if (config) specs.push(codeIn('environment', program, '--config', config));
  const host = lastValue(global, 'H');
  if (host && (!host.static || !/^(unix|tcp|npipe|fd):\/\//.test(host.value))) {
    specs.push(codeIn('program-option', program, '-H', host));
  }
  const unknown = parsed.unknownSubcommand;
  const plugin = parsed.levels[1]?.name.split(' ').at(-1);
  if (isPlugin(plugin)) {
    // The plugin's commands the spec lists run nothing else; any other runs the plugin's code (a project's
    // services, a build).
    if (!unknown) return specs;
    const from = parsed.levels[1]!.index;
    const name = `${program}-${plugin}`;
    return [...specs, codeSpec('program-option', program, name, cmd.argv[from]!, name)];
  }
  if (unknown) {
    if (!unknown.word.static) {
      return [...specs, unresolved(`${program} subcommand only known at run time`, unknown.word)];
    }
    // Only a top-level command may be a plugin; a group's unknown command is an error.
    if (parsed.levels.length > 1) return specs;
    const plugin = `${program}-${unknown.word.value}`;
    return [...specs, codeSpec('program-option', program, plugin, unknown.word, plugin)];
  }
  const path = commandPath(parsed);
  const last = parsed.levels.at(-1)!;
  const at = cmd.argv[last.index]!;
  const via = `${program} ${path.split(' ').at(-1)}`;
  if (HIDDEN.has(path)) return [...specs, codeSpec('program-option', program, via, at)];
  if (!RUNS.has(path)) return specs;
  if (last.parsed.unknown.length || last.parsed.suspects.length) {
    return [...specs, codeSpec('program-option', program, via, at)];
  }
  const command = operandWords(cmd.argv, last.parsed).slice(1);
  const entrypoint = lastValue(last.parsed, '--entrypoint');
  const words = entrypoint && leadingText(entrypoint) !== '' ? [entrypoint, ...command] : command;
  if (words.length === 0) return [...specs, codeSpec('program-option', program, via, at)];
  const text = joinWords(words);
  return [...specs, codeSpec('program-option', program, via, text, text.static ? text.value : undefined)];
}

/**
 * The client talks to its daemon over the local socket; over the network when `-H` names a TCP or SSH host (or a
 * value known at run time), or a `--context`, which may, and whenever the command reaches a registry (compose may
 * fetch a compose file's remote includes).
 */
function dockerNetwork(cmd: CommandView): boolean {
  const parsed = parseDocker(cmd);
  if (!parsed) return true;
  const global = parsed.levels[0]!.parsed;
  const host = lastValue(global, 'H');
  const context = lastValue(global, 'c');
  const path = commandPath(parsed);
  return (
    REGISTRY.has(path) ||
    path.startsWith('compose') ||
    path === 'buildx imagetools inspect' ||
    path.startsWith('trust') ||
    (host !== undefined && (!host.static || !/^(unix|npipe|fd):\/\//.test(host.value))) ||
    (context !== undefined && !(context.static && context.value === 'default'))
  );
}

export const DOCKER: ProgramModule = {
  names: ['docker'],
  spec: DOCKER_SPEC,
  effects: dockerEffects,
  nested: dockerNested,
  network: dockerNetwork,
  oracle: {
    cases: [
      'docker cp c:/x .git/hooks/pre-commit',
      'docker cp . c:/x',
      'docker cp .env c:/tmp/',
      'docker container cp c:/etc/passwd ./out',
      'docker save -o .git/config x',
      'docker image save --output=.git/config x',
      'docker export -o .git/hooks/post-checkout c',
      'docker load -i .env',
      'docker import .env img',
      'docker build -t x .',
      'docker build --secret id=s,src=.env .',
      'docker build -o type=local,dest=.git/hooks .',
      'docker build --iidfile .git/hooks/pre-commit .',
      'docker run --rm -v .:/w alpine cat /w/.env',
      'docker run --env-file .env alpine env',
      'docker run --mount type=bind,source=.git,target=/g alpine true',
      'docker run --cidfile .git/hooks/pre-push alpine',
      'docker --config ./cfg ps',
      'docker -H ssh://host ps',
      'docker compose up',
      'docker compose ps',
      'docker compose -f compose.yml --env-file .env -p app ps -a',
      'docker compose logs --tail 5 web',
      'docker compose config --services',
      'docker compose config --services -o .git/hooks/pre-commit',
      'docker compose ls',
      'docker --context prod compose ps',
      'docker buildx build .',
      'docker buildx ls',
      'docker buildx inspect',
      'docker buildx imagetools inspect alpine',
      'docker foo',
      'docker ps --zz-unknown',
      'docker context export x .git/hooks/pre-commit',
      'docker trust key generate k --dir .git/hooks',
      'docker login -u u -p p',
      'docker events --since 1h',
      'docker context inspect',
      'docker service logs -f web',
      'docker secret inspect --pretty key',
      'docker node ps self',
      'docker stack services app',
      'docker save app:1',
      'docker container export web',
    ],
    operands: ['c:/x', './a:b', '/abs/path', '-', '.'],
  },
};
