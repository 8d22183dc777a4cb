/**
 * What the options of the settings, model and hook commands mean, in one place: the yargs builders and the
 * bundled hook's `util.parseArgs` configuration are both generated from these tables. This module imports
 * nothing, so the hook pays nothing for it.
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Repeatable: the values are collected in an array. */
  multiple?: boolean;
  default?: boolean;
  describe: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export const SETTINGS_OPTIONS = {
  settings: {
    type: 'string',
    multiple: true,
    describe: 'Extra settings file (or inline JSON), like claude --settings; repeatable',
  },
  rules: {
    type: 'string',
    multiple: true,
    describe: 'automode pattern rule file (JSON or YAML); repeatable',
  },
  allow: { type: 'string', multiple: true, describe: 'Allow rule, e.g. "Bash(npm test)"; repeatable' },
  ask: { type: 'string', multiple: true, describe: 'Ask rule; repeatable' },
  deny: { type: 'string', multiple: true, describe: 'Deny rule; repeatable' },
  cwd: { type: 'string', describe: 'Working folder (default: the current one)' },
  defaults: {
    type: 'boolean',
    default: true,
    describe: 'Use the shipped rules (--no-defaults to leave them out)',
  },
} as const satisfies OptionSpecs;

export const MODEL_OPTIONS = {
  llm: {
    type: 'boolean',
    default: true,
    describe:
      'Ask the model about what rules leave open, when ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set (--no-llm: never)',
  },
  model: { type: 'string', describe: 'Model for both stages (default: AUTOMODE_MODEL, then built-in)' },
  replay: { type: 'string', describe: 'Answer model calls from a recording (offline, reproducible)' },
  record: { type: 'string', describe: 'Record model exchanges to this file (JSONL)' },
} as const satisfies OptionSpecs;

/** The hook's own options; the option names are kebab-case, as typed on the command line. */
export const HOOK_OPTIONS = {
  'ask-when-undecided': {
    type: 'boolean',
    default: false,
    describe:
      'When neither the rules nor the model decide, answer ask (a prompt); by default automode then gives no decision and Claude Code applies its own permissions',
  },
  forward: {
    type: 'string',
    describe:
      'Send the call to a running `automode serve` and print its answer: alone, as service.json in the service folder says; or =SOCKET_PATH or =http://127.0.0.1:PORT. With no service reachable, decides in-process',
  },
  serve: {
    type: 'boolean',
    default: false,
    describe:
      "Send the call to a service of this hook's own, started in the background at its first call (which is decided in-process) and stopped after 15 idle minutes; one service per set of options, environment, folder and build of automode",
  },
} as const satisfies OptionSpecs;
