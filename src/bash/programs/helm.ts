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

/** `addInstallFlags` (`wait` and `dry-run` take an optional attached value: read here as flags). */
const INSTALL =
  'create-namespace force-replace force force-conflicts server-side no-hooks replace timeout= wait-for-jobs ' +
  'generate-name/g name-template= description= devel dependency-update disable-openapi-validation ' +
  'rollback-on-failure atomic skip-crds render-subchart-notes skip-schema-validation labels=/l enable-dns ' +
  'hide-notes take-ownership wait';

/** `addValueOptionsFlags`. */
const VALUES = 'values=/f set= set-string= set-file= set-json= set-literal=';

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
  template:
    `${INSTALL} ${VALUES} ${CHART_PATH} show-only=/s output-dir= validate include-crds skip-tests is-upgrade ` +
    'kube-version= api-versions=/a release-name dry-run post-renderer= post-renderer-args=',
  lint: `strict with-subcharts quiet skip-schema-validation kube-version= ${VALUES}`,
  verify: 'keyring=',
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
 * list` reads Chart.yaml, Chart.lock and charts/. Not `--verify`/`--keyring`, `--repo` and its credentials.
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

/**
 * A chart read where it lies: a path beginning `.` or `/`, or one name without a slash (`LocateChart` reads
 * an existing path first; a name without `REPO/` cannot be looked up in a repository and fails).
 */
const LOCAL_CHART = /^(?:[./]|[\w.-]+$)/;

/** A values file (`-f a.yaml,b.yaml`) or `--set-file` path with a URL scheme is downloaded by a getter or plugin. */
const SCHEME = /^[a-z][\w+.-]*:/i;

/** The files `-f` and `--set-file` name, or the reason they cannot be read from the words. */
export function valueFiles(parsed: Parsed): Word[] | string {
  const files: Word[] = [];
  for (const found of parsed.options) {
    const value = found.value;
    if (!value || (found.name !== 'f' && found.name !== '--set-file')) continue;
    if (!value.static)
      return `helm ${found.name === 'f' ? '-f' : '--set-file'} ${value.text} is only known at run time`;
    // -f is split as one CSV record (quotes join names); --set-file is one KEY=PATH here: helm's value parser
    // reads commas, escapes and lists in it.
    if (found.name === 'f' && value.value.includes('"')) return `helm -f ${value.text} quotes a file name`;
    if (found.name === '--set-file' && !/^[\w.-]+=[^,\\{}[\]]+$/.test(value.value))
      return `helm --set-file ${value.text} is not one KEY=PATH`;
    const paths =
      found.name === 'f' ? value.value.split(',') : [value.value.slice(value.value.indexOf('=') + 1)];
    for (const path of paths) {
      if (path === '' || SCHEME.test(path))
        return `helm may download ${path || 'an empty name'}: only local files are read`;
      if (path === '-') continue;
      files.push({ ...value, text: path, value: path, dynamic: [] });
    }
  }
  return files;
}

/**
 * `helm template [NAME] CHART` and `helm lint [CHART...]` render a local chart: its templates (helm's engine has
 * no `env`, and no DNS without `--enable-dns`; `lookup` has no cluster) with the values given. The values files
 * are read where they lie, never downloaded.
 */
function rendersLocally(parsed: Parsed, words: readonly Word[], path: string): string | undefined {
  const operands = operandWords(words, parsed);
  const charts = path === 'template' ? operands.slice(-1) : operands;
  if (path === 'template' && (operands.length === 0 || operands.length > 2))
    return 'helm template takes a NAME and a CHART';
  for (const chart of charts) {
    if (!chart.static || !LOCAL_CHART.test(chart.value))
      return `helm may download ${chart.text} from a repository: only a chart here is read where it lies`;
  }
  const files = valueFiles(parsed);
  return typeof files === 'string' ? files : undefined;
}

/**
 * `helm template NAME bitnami/redis`: a chart of one of the user's own repositories, downloaded into helm's cache
 * with the credentials stored for that repository (as `helm show` is), then rendered as a local chart is.
 */
function rendersFromRepository(parsed: Parsed, words: readonly Word[]): string | undefined {
  const operands = operandWords(words, parsed);
  const chart = operands.at(-1);
  if (operands.length === 0 || operands.length > 2) return 'helm template takes a NAME and a CHART';
  if (!chart!.static || !(REPO_CHART.test(chart!.value) || LOCAL_CHART.test(chart!.value)))
    return `helm template ${chart!.text} is not a chart of a repository the user added`;
  const files = valueFiles(parsed);
  return typeof files === 'string' ? files : undefined;
}

/**
 * What rendering may carry: the values, what is rendered and for which Kubernetes, and the install options that
 * do nothing without a cluster. Not `--post-renderer` (a plugin runs), `--dependency-update`, `--repo`,
 * `--verify` and the credentials (downloads), `--enable-dns`, `--validate`, `--dry-run` (the cluster),
 * `--name-template` (rendered with `env` and DNS lookups), `--output-dir` (writes files).
 */
const RENDER =
  'f --set --set-string --set-file --set-json --set-literal --skip-schema-validation --kube-version';
const TEMPLATE =
  `${RENDER} g --description --devel --no-hooks --skip-crds --include-crds --skip-tests --is-upgrade a s ` +
  '--release-name --disable-openapi-validation --create-namespace --hide-notes --render-subchart-notes l ' +
  `--timeout ${SAFE_GLOBALS}`;

const CHART_READS: Readonly<Record<string, ReadOnlySpec>> = {
  template: readOnly(TEMPLATE, 'inert', {
    check: (parsed, words) => rendersLocally(parsed, words, 'template'),
  }),
  lint: readOnly(`${RENDER} --strict --with-subcharts --quiet ${SAFE_GLOBALS}`, 'inert', {
    check: (parsed, words) => rendersLocally(parsed, words, 'lint'),
  }),
  // The package and its .prov file, against the keyring's public keys.
  verify: readOnly(`--keyring ${SAFE_GLOBALS}`, 'files', { maxOperands: 1 }),
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
  const shown =
    path === 'template'
      ? readOnly(`${TEMPLATE} --version`, 'inert', { check: rendersFromRepository })
      : path.startsWith('show ')
        ? readOnly(
            `--devel --version ${path === 'show values' ? '--jsonpath ' : ''}${SAFE_GLOBALS}`,
            'inert',
            {
              maxOperands: 1,
              check: repositoryChart,
            },
          )
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
  const operands = operandWords(cmd.argv, last.parsed);
  if (path === 'verify') {
    const keyring = last.parsed.options.filter((o) => o.name === '--keyring' && o.value).map((o) => o.value!);
    const prov = operands.map((file) => ({
      ...file,
      text: `${file.text}.prov`,
      value: `${file.value}.prov`,
    }));
    return { effects: [...operands, ...prov, ...keyring].map((file) => argument('read', file)), known: true };
  }
  // The chart named, or the working folder; a repository's chart (`show`, `template`), downloaded into helm's own cache, is
  // read where a folder of that name lies here, if one does. helm loads a chart folder following its links.
  // --output-dir writes the rendered files, --dependency-update downloads into the chart's charts/.
  if (has(last.parsed, '--output-dir', '--dependency-update')) return UNKNOWN;
  const charts = path === 'template' ? operands.slice(-1) : operands;
  const named = (chart: Word) =>
    chart.static &&
    (LOCAL_CHART.test(chart.value) ||
      ((path.startsWith('show ') || path === 'template') && REPO_CHART.test(chart.value)));
  if (!charts.every(named)) return UNKNOWN;
  if (charts.length === 0) charts.push(syntheticWord('.', cmd.argv[last.index]!.span));
  const values = valueFiles(last.parsed);
  if (typeof values === 'string') return UNKNOWN;
  return {
    effects: [
      ...charts.map((chart) => ({ ...argument('read', chart), followsLinks: true as const })),
      ...values.map((file) => argument('read', file)),
    ],
    known: true,
  };
}

/**
 * The charts `helm template` or `helm lint` validates against their values.schema.json (whose `$ref`s helm
 * loads from any file or URL), with their subcharts; none with `--skip-schema-validation` or another command.
 */
export function helmSchemaCharts(argv: readonly Word[]): Word[] {
  const parsed = parseCommand(HELM_SPEC, argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return [];
  const last = parsed.levels.at(-1)!;
  const path = last.name.split(' ').slice(1).join(' ');
  if ((path !== 'template' && path !== 'lint') || has(last.parsed, '--skip-schema-validation', 'h'))
    return [];
  const operands = operandWords(argv, last.parsed);
  const charts = path === 'template' ? operands.slice(-1) : operands;
  return charts.length > 0 ? charts : [syntheticWord('.', argv[last.index]!.span)];
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
      'helm template x ./chart',
      'helm template x ./chart -f k.yaml --set-file k=.env',
      'helm lint ./chart --strict --with-subcharts',
      'helm verify ./chart-1.0.0.tgz',
    ],
  },
};
