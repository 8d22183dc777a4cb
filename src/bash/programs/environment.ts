import type { Assignment, NestedSpec, Span, Word } from '../types.js';
import { assignmentName, codeText, leadingText, wordAssignment } from './words.js';

/** Variables whose value is a command some program runs through a shell. */
const COMMAND_VARIABLES = new Set([
  'PAGER',
  'GIT_PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'EDITOR',
  'VISUAL',
  'FCEDIT',
  'SUDO_EDITOR',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_PROXY_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'LESSOPEN',
  'LESSCLOSE',
  'PROMPT_COMMAND',
  'BROWSER',
  'SHELL',
  'RSYNC_RSH',
  'RUSTC_WRAPPER',
  'KUBE_EDITOR',
  'KUBECTL_EXTERNAL_DIFF',
  'FZF_DEFAULT_COMMAND',
]);

/** Variables that change which code a program loads or where it looks for programs and configuration. */
const LOADER_VARIABLES = new Set([
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'DYLD_FRAMEWORK_PATH',
  'GCONV_PATH',
  // openssl's configuration, which may load providers and engines, and the folders it loads them from.
  'OPENSSL_CONF',
  'OPENSSL_MODULES',
  'OPENSSL_ENGINES',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'XDG_CONFIG_HOME',
  'RIPGREP_CONFIG_PATH',
  'FZF_DEFAULT_OPTS',
  'FZF_DEFAULT_OPTS_FILE',
  // Configurations that name programs: kubeconfig exec plugins, docker credential helpers and CLI plugins, ssh.
  'KUBECONFIG',
  'DOCKER_CONFIG',
  'DOCKER_HOST',
  'DOCKER_CONTEXT',
  // podman's: a remote service and its ssh key, and configuration files naming helper programs.
  'CONTAINER_HOST',
  'CONTAINER_CONNECTION',
  'CONTAINER_SSHKEY',
  'CONTAINERS_CONF',
  'CONTAINERS_CONF_OVERRIDE',
  'CONTAINERS_STORAGE_CONF',
  'CONTAINERS_REGISTRIES_CONF',
  // cargo and rustc: the compiler cargo runs (also to read the target's settings), its flags
  'RUSTC',
  'RUSTDOC',
  'RUSTC_WORKSPACE_WRAPPER',
  'RUSTFLAGS',
  'RUSTDOCFLAGS',
]);

/**
 * The cloud CLIs' settings: gcloud reads every property from CLOUDSDK_SECTION_NAME (its API endpoints, the access
 * token file, the account to impersonate), az its configuration folder and settings from AZURE_*. terraform reads
 * extra command-line words from TF_CLI_ARGS*, its CLI configuration (credential helper programs, provider
 * sources) from TF_CLI_CONFIG_FILE and TERRAFORM_CONFIG, its data folder from TF_DATA_DIR; helm its plugins,
 * API server and bearer token from HELM_*; cargo every configuration value from CARGO_*
 * (`CARGO_BUILD_RUSTC_WRAPPER`, `CARGO_HOME`), rustup the toolchain from RUSTUP_*.
 */
const LOADER_PREFIXES = [
  'GIT_CONFIG',
  'BASH_FUNC_',
  'CLOUDSDK_',
  'AZURE_',
  'TF_',
  'TERRAFORM_CONFIG',
  'HELM_',
  'CARGO_',
  'RUSTUP_',
];

export function variableRisk(name: string): 'command' | 'loader' | undefined {
  if (COMMAND_VARIABLES.has(name)) return 'command';
  if (LOADER_VARIABLES.has(name) || LOADER_PREFIXES.some((prefix) => name.startsWith(prefix)))
    return 'loader';
  return undefined;
}

export function variableSpec(program: string, name: string, value: Word, span: Span): NestedSpec | undefined {
  const risk = variableRisk(name);
  if (risk === 'command') return { kind: 'shell', script: value, via: name };
  if (risk === 'loader') {
    const code = codeText(value);
    return {
      kind: 'code',
      exec: {
        kind: 'environment',
        program,
        via: name,
        ...(code === undefined ? {} : { code }),
        span: { ...span },
      },
    };
  }
  return undefined;
}

export function assignmentSpecs(program: string, assignments: readonly Assignment[]): NestedSpec[] {
  return assignments.flatMap((assignment) => {
    const spec = variableSpec(program, assignment.name, assignment.value, assignment.span);
    return spec ? [spec] : [];
  });
}

/** `export NAME=value`, `declare -x NAME=value`: operands that set variables of the current shell. */
export function declarationSpecs(program: string, words: readonly Word[]): NestedSpec[] {
  const specs: NestedSpec[] = [];
  let options = true;
  for (const word of words.slice(1)) {
    const lead = leadingText(word);
    if (options && word.static && word.value === '--') {
      options = false;
      continue;
    }
    if (options && /^[-+]/.test(lead)) continue;
    const name = assignmentName(word);
    if (name === 'dynamic') {
      specs.push({
        kind: 'unresolved',
        reason: `${program} ${word.text} may set any variable`,
        span: word.span,
      });
    } else if (name !== null) {
      const spec = variableSpec(
        program,
        name.replace(/\+$/, ''),
        wordAssignment(word, name).value,
        word.span,
      );
      if (spec) specs.push(spec);
    }
  }
  return specs;
}
