import type { CommandView, EffectsResult, FileAccess, FileEffect, NestedSpec, Word } from '../../types.js';
import { credentialOptionNames } from '../credential-options.js';
import { argument, option, UNKNOWN } from '../effect-helpers.js';
import { type ProgramModule, subcommandOf } from '../module.js';
import { has, lastValue, operandWords, optionsNamed, type Parsed } from '../options.js';
import { parsePflag } from '../pflag.js';
import type { ParsedCommand } from '../program.js';
import { codeIn, codeSpec, unresolved } from '../specs.js';
import { is, joinWords, leadingText, sliceWord, syntheticWord } from '../words.js';
import { KUBECTL_SPEC } from './spec.js';

function parseKubectl(cmd: CommandView): ParsedCommand | undefined {
  return parsePflag(KUBECTL_SPEC, cmd.argv);
}

/** `get pods` → `get`, `create secret generic` → `create secret generic`: the command a parse names. */
function commandPath(parsed: ParsedCommand): string {
  return parsed.levels.at(-1)!.name.split(' ').slice(1).join(' ');
}

/** Every option of every level: cobra reads the global ones anywhere. */
function allOptions(parsed: ParsedCommand): Parsed['options'] {
  return parsed.levels.flatMap((level) => level.parsed.options);
}

function valuesOf(parsed: ParsedCommand, ...names: string[]): Word[] {
  return parsed.levels.flatMap((level) => optionsNamed(level.parsed, ...names).map((found) => found.value!));
}

/** A URL (`-f https://…`) or stdin (`-f -`): no local file. */
function remoteOrStdin(word: Word): boolean {
  return is(word, '-') || /^[a-z][a-z0-9+.-]*:\/\//i.test(leadingText(word));
}

/** `-o go-template-file=FILE`, `jsonpath-file=`, `templatefile=`, `custom-columns-file=`: a template file read. */
const FILE_FORMATS = /^(go-template-file|jsonpath-file|templatefile|custom-columns-file)(=|$)/;

interface Context {
  cmd: CommandView;
  parsed: ParsedCommand;
  last: Parsed;
  effects: FileEffect[];
  known: boolean;
}

function optionFiles(ctx: Context, files: Record<string, FileAccess>): void {
  for (const found of allOptions(ctx.parsed)) {
    const access = files[found.name];
    if (access && found.value && !remoteOrStdin(found.value)) ctx.effects.push(option(access, found.value));
  }
}

/** The kubeconfig a command reads and `kubectl config` writes: `--kubeconfig`, else the user's own. */
function kubeconfig(ctx: Context): Word {
  return (
    valuesOf(ctx.parsed, '--kubeconfig').at(-1) ?? syntheticWord('~/.kube/config', ctx.cmd.argv[0]!.span)
  );
}

function outputFormats(ctx: Context): void {
  for (const format of valuesOf(ctx.parsed, 'o')) {
    const kind = FILE_FORMATS.exec(leadingText(format));
    if (!kind) {
      if (!format.static && leadingText(format) === '') ctx.known = false;
      continue;
    }
    if (kind[2] === '=') ctx.effects.push(option('read', sliceWord(format, kind[0].length)));
    for (const template of valuesOf(ctx.parsed, '--template')) ctx.effects.push(option('read', template));
  }
}

/** `--from-file=[KEY=]PATH`: a file or a folder whose files become the object's data. */
function fromFiles(ctx: Context): void {
  for (const value of valuesOf(ctx.parsed, '--from-file')) {
    const eq = leadingText(value).indexOf('=');
    ctx.effects.push(option('read', eq < 0 ? value : sliceWord(value, eq + 1)));
  }
  optionFiles(ctx, { '--from-env-file': 'read' });
}

/** `kubectl cp`: an operand holding `:` is `[NAMESPACE/]POD:PATH`; any other is a local path. */
function cp(ctx: Context): void {
  const [source, target] = operandWords(ctx.cmd.argv, ctx.last);
  if (!source || !target) return;
  const local = (word: Word) => !leadingText(word).includes(':');
  if (local(source)) ctx.effects.push(argument('read', source));
  if (local(target)) ctx.effects.push(argument('write', target));
  if ((local(source) && !source.static) || (local(target) && !target.static)) ctx.known = false;
}

function readsConfig(ctx: Context): void {
  ctx.effects.push(option('read', kubeconfig(ctx)));
}

function writesConfig(ctx: Context): void {
  ctx.effects.push(option('write', kubeconfig(ctx)));
}

/**
 * `config view` prints the kubeconfig (its secrets with `--raw`): a read of the file, decided as one. The others
 * print names only (the current context, the contexts, clusters and users): kubectl reading its own
 * configuration to answer is not the agent reading the file, unless the command names another file.
 */
const CONFIG_READS = ['view'];
const CONFIG_NAMES = 'get-contexts get-clusters get-users current-context'.split(' ');

function readsNamedConfig(ctx: Context): void {
  const named = valuesOf(ctx.parsed, '--kubeconfig').at(-1);
  if (named) ctx.effects.push(option('read', named));
}
const CONFIG_WRITES =
  'set set-cluster set-context set-credentials unset use-context delete-cluster delete-context delete-user rename-context'.split(
    ' ',
  );

/** What each command does to local files besides `-f`, `-k` and `-o`; the others talk to the cluster only. */
const COMMAND_EFFECTS: Readonly<Record<string, (ctx: Context) => void>> = {
  cp,
  'create configmap': fromFiles,
  'create secret generic': fromFiles,
  'create secret docker-registry': fromFiles,
  'create secret tls': (ctx) => optionFiles(ctx, { '--cert': 'read', '--key': 'read' }),
  patch: (ctx) => optionFiles(ctx, { '--patch-file': 'read' }),
  debug: (ctx) => optionFiles(ctx, { '--custom': 'read' }),
  'cluster-info dump': (ctx) => optionFiles(ctx, { '--output-directory': 'write' }),
  proxy: (ctx) => optionFiles(ctx, { w: 'read', u: 'write' }),
  kustomize: (ctx) => {
    const [folder] = operandWords(ctx.cmd.argv, ctx.last);
    ctx.effects.push(argument('read', folder ?? syntheticWord('.', ctx.cmd.argv[0]!.span)));
    if (has(ctx.last, '--enable-alpha-plugins', '--enable-helm', '--mount', '--network')) ctx.known = false;
    // Outside the root, a kustomization may read any file.
    const restrictor = lastValue(ctx.last, '--load-restrictor');
    if (restrictor && !is(restrictor, 'LoadRestrictionsRootOnly')) ctx.known = false;
  },
  ...Object.fromEntries(CONFIG_READS.map((name) => [`config ${name}`, readsConfig])),
  ...Object.fromEntries(CONFIG_NAMES.map((name) => [`config ${name}`, readsNamedConfig])),
  ...Object.fromEntries(CONFIG_WRITES.map((name) => [`config ${name}`, writesConfig])),
};

/**
 * The files a kubectl command touches here: the manifests, kustomizations and templates it reads, what `cp`,
 * `config` and a profile write, the kubeconfig and TLS files named on the line. A command the spec does not know
 * (a plugin) has unknown effects.
 */
function kubectlEffects(cmd: CommandView): EffectsResult {
  const parsed = parseKubectl(cmd);
  if (!parsed || parsed.unknownSubcommand) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  const ctx: Context = {
    cmd,
    parsed,
    last: last.parsed,
    effects: [],
    known: parsed.levels.every(
      (level) => level.parsed.unknown.length === 0 && level.parsed.suspects.length === 0,
    ),
  };
  const path = commandPath(parsed);
  optionFiles(ctx, {
    '--kubeconfig': 'read',
    '--certificate-authority': 'read',
    '--client-certificate': 'read',
    '--client-key': 'read',
    '--cache-dir': 'write',
    f: 'read',
    k: 'read',
  });
  // Another server, a token or password of the line's, a CA or server name, no TLS check: the kubeconfig's
  // credentials go where the line says, so they count as read.
  if (talksToCluster(cmd) && allOptions(parsed).some((found) => CREDENTIALS_GO_TO.includes(found.name)))
    ctx.effects.push(option('read', kubeconfig(ctx)));
  // kubectl writes the profile only when --profile names one; the file is declared whenever either is given.
  // `kubectl debug --profile` names a debugging profile, not a pprof one.
  const profile = path === 'debug' ? undefined : valuesOf(parsed, '--profile').at(-1);
  const output = valuesOf(parsed, '--profile-output').at(-1);
  if (output) ctx.effects.push(option('write', output));
  else if (profile && !is(profile, 'none'))
    ctx.effects.push(option('write', syntheticWord('profile.pprof', profile.span)));
  if (path === 'kustomize') {
    optionFiles(ctx, { o: 'write' });
  } else {
    outputFormats(ctx);
  }
  COMMAND_EFFECTS[path]?.(ctx);
  return { effects: dedupe(ctx.effects), known: ctx.known };
}

function dedupe(effects: FileEffect[]): FileEffect[] {
  const seen = new Set<string>();
  return effects.filter((effect) => {
    const key = `${effect.access} ${effect.via} ${effect.path.span.start} ${effect.path.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Commands that run code in a pod (the words after `--`), or that open the cluster to this machine. */
const REMOTE = new Set(['exec', 'attach', 'run', 'debug', 'port-forward', 'proxy']);

/** Commands that run a program on this machine: the editor, the plugins and helm of a kustomization. */
const LOCAL = new Set(['edit', 'apply edit-last-applied']);

/**
 * What kubectl runs besides itself. A kubeconfig names programs (`users[].user.exec.command` credential plugins,
 * auth providers): one named by `--kubeconfig` (or `KUBECONFIG`) is not the user's own configuration, and the
 * rule that allowed the command does not name that code. The default ~/.kube/config is the user's: automode
 * asks before anything writes it. `kubectl NAME` for a command kubectl lacks runs the plugin `kubectl-NAME`, and
 * `kubectl create NAME` the plugin `kubectl-create-NAME`.
 */
function kubectlNested(cmd: CommandView): NestedSpec[] {
  const parsed = parseKubectl(cmd);
  if (!parsed) return [unresolved('kubectl: options it cannot read', cmd.argv[0]!)];
  const specs: NestedSpec[] = valuesOf(parsed, '--kubeconfig').map((file) =>
    codeIn('environment', 'kubectl', '--kubeconfig', file),
  );
  const unknown = parsed.unknownSubcommand;
  if (unknown) {
    if (!unknown.word.static)
      return [...specs, unresolved('kubectl subcommand only known at run time', unknown.word)];
    // A plugin extends kubectl itself, or `kubectl create` (KUBECTL_ENABLE_CMD_SHADOW); under any other command
    // an unknown word is an error kubectl reports without running anything.
    const group = parsed.levels.slice(1).map((level) => level.name.split(' ').at(-1));
    if (group.length > 0 && group.join(' ') !== 'create') return specs;
    const plugin = [
      'kubectl',
      ...parsed.levels.slice(1).map((level) => level.name.split(' ').at(-1)),
      unknown.word.value,
    ].join('-');
    return [...specs, codeSpec('program-option', 'kubectl', plugin, unknown.word, plugin)];
  }
  const last = parsed.levels.at(-1)!;
  const path = commandPath(parsed);
  const at = cmd.argv[last.index]!;
  if (LOCAL.has(path)) specs.push(codeSpec('environment', 'kubectl', `kubectl ${path}`, at));
  if (
    path === 'kustomize' &&
    has(last.parsed, '--enable-alpha-plugins', '--enable-helm', '--mount', '--network')
  ) {
    specs.push(codeSpec('program-option', 'kubectl', 'kubectl kustomize', at));
  }
  if (!REMOTE.has(path)) return specs;
  const dashdash = last.parsed.dashdash;
  const command = dashdash === undefined ? [] : cmd.argv.slice(dashdash + 1);
  const text = command.length ? joinWords(command) : at;
  const code = command.length && text.static ? text.value : undefined;
  return [...specs, codeSpec('program-option', 'kubectl', `kubectl ${path}`, text, code)];
}

/** Commands that work on local files only; every other one talks to the cluster's API server. */
const CLUSTER_FREE = new Set(['config', 'completion', 'kustomize', 'plugin', 'options', 'version']);

/** Options that change where kubectl sends the kubeconfig's credentials, or whom it accepts as the server. */
const CREDENTIALS_GO_TO = credentialOptionNames('kubectl');

function talksToCluster(cmd: CommandView): boolean {
  const sub = subcommandOf(KUBECTL_SPEC, cmd);
  return (
    sub === undefined ||
    !CLUSTER_FREE.has(sub.split(' ')[0]!) ||
    (sub === 'version' && !cmd.argv.some((w) => w.value === '--client'))
  );
}

export const KUBECTL: ProgramModule = {
  names: ['kubectl'],
  spec: KUBECTL_SPEC,
  effects: kubectlEffects,
  nested: kubectlNested,
  network: talksToCluster,
  oracle: {
    cases: [
      'kubectl get pods --kubeconfig=./k.yaml',
      'kubectl --kubeconfig k.yaml get pods',
      'kubectl get pods --profile=cpu --profile-output=.git/hooks/pre-commit',
      'kubectl get pods --profile=heap',
      'kubectl get pods --cache-dir=.git/hooks',
      'kubectl get pods -o go-template-file=.env',
      'kubectl get pods -o=jsonpath-file=.env',
      'kubectl get pods -o go-template-file --template=.env',
      'kubectl apply -f .env',
      'kubectl get -f . -R',
      'kubectl create secret generic s --from-file=.env',
      'kubectl create configmap c --from-file=key=.env',
      'kubectl cp pod:/etc/passwd .git/hooks/pre-commit',
      'kubectl cp . pod:/tmp',
      'kubectl kustomize . -o .git/hooks/pre-commit',
      'kubectl config set-credentials u --exec-command=./x',
      'kubectl config view --raw',
      'kubectl proxy --www=.',
      'kubectl exec pod -- cat /etc/passwd',
      'kubectl foo',
      'kubectl get pods --zz-unknown',
      'kubectl get pods -n dev -o wide',
      'kubectl get pods -o go-template-file=README.md',
      'kubectl describe deploy web',
      'kubectl logs web --tail 20',
      'kubectl rollout history deploy/web',
      'kubectl config current-context',
      'kubectl config get-contexts -o name',
      'kubectl version --client -o json',
      'kubectl get pods -- web',
    ],
    operands: ['pod:/path', 'ns/pod:/path', '-', '.'],
  },
};
