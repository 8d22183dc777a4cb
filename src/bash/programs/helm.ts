import type { CommandView, EffectsResult, NestedSpec, Word } from '../types.js';
import { argument, NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { type Grammar, has, operandWords, type Parsed } from './options.js';
import { pflagGrammar } from './pflag.js';
import {
  type ProgramSpec,
  parseCommand,
  type ReadOnlySpec,
  readOnly,
  type SubcommandSpec,
} from './program.js';
import { codeIn, codeSpec, unresolved } from './specs.js';
import { is, leadingText, sliceWord, syntheticWord } from './words.js';

/** The options every helm command reads, before or after its name (helm's pkg/cli/environment.go). */
const GLOBAL =
  'burst-limit= color= colour= content-cache= debug kube-apiserver= kube-as-group= kube-as-user= kube-ca-file= ' +
  'kube-context= kube-insecure-skip-tls-verify kube-tls-server-name= kube-token= kubeconfig= namespace=/n qps= ' +
  'registry-config= repository-cache= repository-config=';

/**
 * The globals a read may carry: the namespace, a context of the user's own kubeconfig, output tuning. Never the
 * ones that point helm at another server or other credentials (--kube-apiserver, --kube-token, --kube-ca-file,
 * --kube-insecure-skip-tls-verify, --kube-tls-server-name, --kube-as-*, --kubeconfig) or at other files.
 */
const SAFE_GLOBALS = 'n --kube-context --debug --burst-limit --qps --color --colour h';

/** Cobra and pflag: exact long names, `-h`/`--help` everywhere; a command's own options, then the globals. */
function pflag(own: string): Grammar {
  return pflagGrammar(`${own} ${GLOBAL}`.trim());
}

/** How a command finds its chart (`addChartPathOptionsFlags`): a local path, else a repository's download. */
const CHART_PATH =
  'version= verify keyring= repo= username= password= cert-file= key-file= insecure-skip-tls-verify plain-http ' +
  'ca-file= pass-credentials';

/**
 * The commands whose options are modelled, in the notation of `grammar()`, from helm's source (github.com/helm/
 * helm, pkg/cmd/*.go, August 2026); `-o/--output` is `bindOutputFlag`. The other commands take any option.
 */
const OWN: Readonly<Record<string, string>> = {
  version: 'short template=',
  env: '',
  'completion bash': 'no-descriptions',
  'completion zsh': 'no-descriptions',
  'completion fish': 'no-descriptions',
  'completion powershell': 'no-descriptions',
  'repo list': 'no-headers output=/o',
  'plugin list': 'type=',
  'search repo': 'regexp/r versions/l devel version= max-col-width= fail-on-no-result output=/o',
  list:
    'short/q no-headers time-format= date/d reverse/r uninstalled superseded uninstalling deployed failed ' +
    'pending all-namespaces/A max=/m offset= filter=/f selector=/l output=/o',
  status: 'revision= output=/o',
  history: 'max= show-rollback-revision output=/o',
  'get notes': 'revision=',
  'get metadata': 'revision= output=/o',
  'get hooks': 'revision=',
  'show all': `devel ${CHART_PATH}`,
  'show chart': `devel ${CHART_PATH}`,
  'show crds': `devel ${CHART_PATH}`,
  'show readme': `devel ${CHART_PATH}`,
  'show values': `devel jsonpath= ${CHART_PATH}`,
  'dependency list': 'max-col-width=',
  'search hub': 'endpoint= max-col-width= list-repo-url fail-on-no-result output=/o',
};

/** What only reads helm's own tables and local files: usage, version, completion scripts, repositories, plugins. */
const LOCAL: Readonly<Record<string, string>> = {
  version: '--short --template',
  'completion bash': '--no-descriptions',
  'completion zsh': '--no-descriptions',
  'completion fish': '--no-descriptions',
  'completion powershell': '--no-descriptions',
  'repo list': '--no-headers o',
  'plugin list': '--type',
  'search repo': 'r l --devel --version --max-col-width --fail-on-no-result o',
};

/**
 * A chart's own files read where it lies: a path beginning `.` or `/` is read from the disk and never looked up
 * in a repository (`LocateChart`: such a path that does not exist is an error, not a download); any other name
 * may be downloaded into helm's cache. `show` only prints the chart's files (nothing is rendered); `dependency
 * list` reads Chart.yaml, Chart.lock and charts/. Not `--verify`/`--keyring`, `--repo` and its credentials. Not
 * `lint` and `template`: they validate values against the chart's values.schema.json, whose `$ref`s load any
 * file:// or http(s):// address the chart names.
 */
function localChart(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const chart of operandWords(words, parsed)) {
    if (!chart.static || !/^[./]/.test(chart.value))
      return `helm may download ${chart.text} from a repository: only a path beginning . or / is read where it lies`;
  }
  return undefined;
}

/** A chart of a repository the user added (`helm repo add`), as `REPO/CHART`: no URL, no `oci://` address. */
const REPO_CHART = /^[\w.-]+\/[\w.-]+$/;

/**
 * `helm show values bitnami/redis`: a chart of one of the user's own repositories, downloaded into helm's cache
 * and printed (nothing rendered), with the credentials stored for that repository only (not --pass-credentials,
 * not --repo, another host). A `REPO/CHART` that is a folder here is read where it lies: the effects list it.
 */
function repositoryChart(parsed: Parsed, words: readonly Word[]): string | undefined {
  const charts = operandWords(words, parsed);
  if (charts.length !== 1) return 'helm show takes one chart';
  const chart = charts[0]!;
  if (!chart.static || !(REPO_CHART.test(chart.value) || /^[./]/.test(chart.value)))
    return `helm show ${chart.text} is not a chart of a repository the user added`;
  return undefined;
}

const CHART_READS: Readonly<Record<string, ReadOnlySpec>> = {
  'show all': readOnly(`--devel --version ${SAFE_GLOBALS}`, 'files', { maxOperands: 1, check: localChart }),
  'show chart': readOnly(`--devel --version ${SAFE_GLOBALS}`, 'files', { maxOperands: 1, check: localChart }),
  'show crds': readOnly(`--devel --version ${SAFE_GLOBALS}`, 'files', { maxOperands: 1, check: localChart }),
  'show readme': readOnly(`--devel --version ${SAFE_GLOBALS}`, 'files', {
    maxOperands: 1,
    check: localChart,
  }),
  'show values': readOnly(`--devel --version --jsonpath ${SAFE_GLOBALS}`, 'files', {
    maxOperands: 1,
    check: localChart,
  }),
  'dependency list': readOnly(`--max-col-width ${SAFE_GLOBALS}`, 'files', {
    maxOperands: 1,
    check: localChart,
  }),
};

/**
 * Reads of the user's releases in the cluster, and a search of Artifact Hub (the search words go to
 * hub.helm.sh; not `--endpoint`, another hub). Not `get values/manifest/all`: they print what may be secret.
 */
const CLUSTER: Readonly<Record<string, string>> = {
  'search hub': '--max-col-width --list-repo-url --fail-on-no-result o',
  list:
    'q --no-headers --time-format d r --uninstalled --superseded --uninstalling --deployed --failed --pending ' +
    'A m --offset f l o',
  status: '--revision o',
  history: '--max --show-rollback-revision o',
  'get notes': '--revision',
  'get metadata': '--revision o',
  'get hooks': '--revision',
};

/** `helm env NAME`: one of helm's settings, but not HELM_KUBETOKEN (a bearer token); `helm env` prints them all. */
function envName(parsed: Parsed, words: readonly Word[]): string | undefined {
  const [name, ...more] = operandWords(words, parsed);
  if (!name || more.length > 0) return 'helm env without one name prints HELM_KUBETOKEN';
  if (!name.static || !/^HELM_\w+$/.test(name.value) || name.value === 'HELM_KUBETOKEN') {
    return `helm env ${name.text} may print a secret`;
  }
  return undefined;
}

function helpOnly(): ReadOnlySpec {
  return readOnly(SAFE_GLOBALS, 'inert', {
    check: (parsed) => (has(parsed, 'h') ? undefined : 'only --help prints and exits'),
  });
}

function level(path: string): SubcommandSpec {
  const local = LOCAL[path];
  const cluster = CLUSTER[path];
  const reads = (options: string) => readOnly(`${options} ${SAFE_GLOBALS}`, 'inert');
  const shown = path.startsWith('show ')
    ? readOnly(`--devel --version ${path === 'show values' ? '--jsonpath ' : ''}${SAFE_GLOBALS}`, 'inert', {
        maxOperands: 1,
        check: repositoryChart,
      })
    : undefined;
  return {
    grammar: pflag(OWN[path] ?? ''),
    readOnly:
      path === 'env'
        ? readOnly(SAFE_GLOBALS, 'inert', { check: envName })
        : path === 'help'
          ? reads('')
          : local
            ? reads(local)
            : (CHART_READS[path] ?? helpOnly()),
    ...(cluster ? { serviceRead: reads(cluster) } : {}),
    ...(shown ? { serviceRead: shown } : {}),
  };
}

function tree(): Record<string, SubcommandSpec> {
  const groups: Record<string, string[]> = {
    completion: ['bash', 'zsh', 'fish', 'powershell'],
    get: ['all', 'hooks', 'manifest', 'metadata', 'notes', 'values'],
    repo: ['add', 'index', 'list', 'remove', 'update'],
    plugin: ['install', 'list', 'package', 'uninstall', 'update', 'verify'],
    search: ['hub', 'repo'],
    dependency: ['build', 'list', 'update'],
    registry: ['login', 'logout'],
    show: ['all', 'chart', 'crds', 'readme', 'values'],
  };
  const top =
    'create docs env help history install lint list package pull push rollback status template test uninstall upgrade verify version';
  const root: Record<string, SubcommandSpec> = {};
  for (const name of top.split(' ')) root[name] = level(name);
  for (const [name, subs] of Object.entries(groups)) {
    const subcommands: Record<string, SubcommandSpec> = {};
    for (const sub of subs) subcommands[sub] = level(`${name} ${sub}`);
    root[name] = {
      grammar: pflag(''),
      permute: false,
      subcommands,
      subcommandAliases: LIST_ALIASES[name] ?? {},
      readOnly: helpOnly(),
    };
  }
  return root;
}

const LIST_ALIASES: Readonly<Record<string, Record<string, string>>> = {
  repo: { ls: 'list', rm: 'remove', up: 'update' },
  plugin: { add: 'install', ls: 'list', rm: 'uninstall', remove: 'uninstall', up: 'update' },
  dependency: { ls: 'list', up: 'update' },
};

let commands: Record<string, SubcommandSpec> | undefined;

export const HELM_SPEC: ProgramSpec = {
  name: 'helm',
  grammar: pflag(''),
  readOnly: helpOnly(),
  get subcommands() {
    commands ??= tree();
    return commands;
  },
  globalOptionsAnywhere: true,
  subcommandAliases: {
    del: 'uninstall',
    delete: 'uninstall',
    un: 'uninstall',
    fetch: 'pull',
    ls: 'list',
    hist: 'history',
    dep: 'dependency',
    dependencies: 'dependency',
    inspect: 'show',
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
  // Installing, updating or packaging a plugin runs its hooks; listing them runs nothing.
  const plugin = parsed.levels.find((found) => found.name === 'helm plugin');
  if (plugin && last.name !== 'helm plugin list')
    specs.push(codeSpec('program-option', 'helm', 'helm plugin', cmd.argv[plugin.index]!));
  return specs;
}

/**
 * The files a helm command touches here: none for usage, version, its own settings, repositories, plugins and
 * cache indexes (which it reads to do its job), and the reads of releases in the cluster. What the others read
 * and write (charts, values files, --output-dir, repository and registry configuration) is not listed.
 */
function helmEffects(cmd: CommandView): EffectsResult {
  const parsed = parseCommand(HELM_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  const path = last.name.split(' ').slice(1).join(' ');
  if (has(last.parsed, 'h')) return NONE;
  if (path === 'help' || path === 'env' || LOCAL[path] || CLUSTER[path]) return NONE;
  if (!CHART_READS[path]) return UNKNOWN;
  // The chart named, or the working folder; a repository's chart (`show`), downloaded into helm's own cache, is
  // read where a folder of that name lies here, if one does.
  const charts = operandWords(cmd.argv, last.parsed);
  const named = (chart: Word) =>
    chart.static && (/^[./]/.test(chart.value) || (path.startsWith('show ') && REPO_CHART.test(chart.value)));
  if (!charts.every(named)) return UNKNOWN;
  if (charts.length === 0) charts.push(syntheticWord('.', cmd.argv[last.index]!.span));
  return { effects: charts.map((chart) => argument('read', chart)), known: true };
}

export const HELM: ProgramModule = {
  names: ['helm'],
  spec: HELM_SPEC,
  effects: helmEffects,
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
