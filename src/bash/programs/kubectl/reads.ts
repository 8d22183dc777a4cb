import type { Word } from '../../types.js';
import type { Parsed } from '../options.js';
import { type ReadOnlySpec, readOnly } from '../program.js';

/**
 * The global options a read keeps: which of the user's own kubeconfig entries to use (`--context`, `--cluster`,
 * `--user`), the namespace and timeouts. Not those that send the credentials elsewhere or bring others
 * (`--server`, `--token`, `--kubeconfig`, TLS files, `--insecure-skip-tls-verify`: `CREDENTIAL_REDIRECTS`), that
 * act as someone else (`--as*`), write files (`--cache-dir`, `--profile*`) or log requests (`-v`, `--vmodule`).
 */
const GLOBAL_READS =
  'cluster= context= namespace=/n user= request-timeout= disable-compression match-server-version ' +
  'warnings-as-errors log-flush-frequency= help/h';

/**
 * The reads of the user's own cluster, each with the options (from `kubectl COMMAND --help`, kubectl 1.32) that
 * keep it one: printing objects, their events, logs and status. Left out: `--raw` (any API path, secrets
 * included), `-f`/`-k`/`-R` where the command prints the objects a manifest names (a Secret's among them),
 * `--insecure-skip-tls-verify-backend`, and every command that writes, runs code or forwards ports.
 */
const SERVICE_READS: Readonly<Record<string, string>> = {
  get: 'all-namespaces/A allow-missing-template-keys chunk-size= field-selector= ignore-not-found label-columns=/L no-headers output=/o output-watch-events selector=/l server-print show-kind show-labels show-managed-fields sort-by= subresource= template= watch/w watch-only',
  describe: 'all-namespaces/A chunk-size= selector=/l show-events',
  logs: 'all-containers all-pods container=/c follow/f ignore-errors limit-bytes= max-log-requests= pod-running-timeout= prefix previous/p selector=/l since= since-time= tail= timestamps',
  'top node': 'no-headers selector=/l show-capacity sort-by= use-protocol-buffers',
  'top pod':
    'all-namespaces/A containers field-selector= no-headers selector=/l sort-by= sum use-protocol-buffers',
  events:
    'all-namespaces/A allow-missing-template-keys chunk-size= for= no-headers output=/o show-managed-fields template= types= watch/w',
  explain: 'api-version= output=/o recursive',
  'api-resources': 'api-group= cached categories= namespaced no-headers output=/o sort-by= verbs=',
  'api-versions': '',
  'cluster-info': '',
  // To standard output: the nodes, workloads, services, events and pod logs `get` and `logs` print (no Secret).
  // Not --output-directory: it writes them to files.
  'cluster-info dump':
    'all-namespaces/A allow-missing-template-keys namespaces= output=/o pod-running-timeout= show-managed-fields template=',
  version: 'client output=/o',
  'auth can-i': 'all-namespaces/A list no-headers quiet/q subresource=',
  'auth whoami': 'allow-missing-template-keys output=/o show-managed-fields template=',
  'rollout status': 'revision= selector=/l timeout= watch/w',
  'rollout history':
    'allow-missing-template-keys output=/o revision= selector=/l show-managed-fields template=',
  wait: 'all all-namespaces/A allow-missing-template-keys field-selector= for= output=/o selector=/l show-managed-fields template= timeout=',
};

/**
 * Local reads of kubectl's own configuration that print names only (the contexts, clusters, users and the
 * current context): read-only defaults. `config view` is not one: without `--raw` it still prints auth-provider
 * settings (OIDC refresh tokens, client secrets) and exec plugins' environment as written; it stays a read of
 * the kubeconfig.
 */
const LOCAL_READS: Readonly<Record<string, string>> = {
  'config current-context': '',
  'config get-contexts': 'no-headers output=/o',
  'config get-clusters': '',
  'config get-users': '',
  // The names of the kubectl-* programs on PATH: it lists them, runs none.
  'plugin list': 'name-only',
};

/** `kubectl completion SHELL` prints the completion script for SHELL. */
const SHELLS = new Set(['bash', 'zsh', 'fish', 'powershell']);

/** The commands whose operands name objects of the cluster: none of them may name a Secret. */
const NAMES_OBJECTS = new Set(['get', 'describe', 'wait']);

/** `--name` and `-x` for each entry of a notation (`name=/x`). */
function optionNames(notation: string): string {
  return notation
    .split(' ')
    .filter(Boolean)
    .flatMap((entry) => {
      const [, name, , letter] = /^([\w.-]+)(=?)(?:\/(\w))?$/.exec(entry)!;
      return letter ? [`--${name}`, letter] : [`--${name}`];
    })
    .join(' ');
}

/** `secret`, `secrets/x`, `pods,secrets`, `Secret.v1.`, `sealedsecrets`: any object of a secret kind. */
function namesSecret(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const index of parsed.operands) {
    if (words[index]!.value.toLowerCase().includes('secret')) return 'it may print secrets';
  }
  return undefined;
}

/** Words after `--` go to a command or plugin in other verbs (`exec`, `run`): a read takes none. */
function noDashDash(parsed: Parsed): string | undefined {
  return parsed.dashdash === undefined ? undefined : 'words after -- are not names kubectl reads';
}

/** The service-read allow-list of a command path, when it has one. */
export function serviceReadOf(path: string): ReadOnlySpec | undefined {
  const own = SERVICE_READS[path];
  if (own === undefined) return undefined;
  const check = NAMES_OBJECTS.has(path)
    ? (parsed: Parsed, words: readonly Word[]) => noDashDash(parsed) ?? namesSecret(parsed, words)
    : noDashDash;
  const operands = ['api-versions', 'cluster-info', 'cluster-info dump', 'version', 'auth whoami'].includes(
    path,
  )
    ? 'none'
    : 'inert';
  return readOnly(optionNames(`${own} ${GLOBAL_READS}`), operands, { check });
}

/** The read-only allow-list of a command path, when it has one: kubectl's local reads. */
export function readOnlyOf(path: string): ReadOnlySpec | undefined {
  if (path === 'version') {
    const check = (parsed: Parsed) =>
      parsed.options.some((o) => o.name === '--client' && (!o.value || o.value.value === 'true'))
        ? undefined
        : 'without --client it asks the cluster';
    return readOnly(optionNames(`client output=/o ${GLOBAL_READS}`), 'none', { check });
  }
  if (path === 'completion') {
    const check = (parsed: Parsed, words: readonly Word[]) =>
      parsed.operands.length === 1 && SHELLS.has(words[parsed.operands[0]!]!.value)
        ? undefined
        : 'kubectl completion takes one shell';
    return readOnly(optionNames(GLOBAL_READS), 'inert', { check });
  }
  const own = LOCAL_READS[path];
  return own === undefined ? undefined : readOnly(optionNames(`${own} ${GLOBAL_READS}`), 'none');
}

/** The levels above a command (the program, `config`, `top`…): the global options a read keeps, nothing else. */
export const GROUP_READ: ReadOnlySpec = readOnly(optionNames(GLOBAL_READS), 'none');
