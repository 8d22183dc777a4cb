export type FindingSeverity = 'error' | 'warning' | 'note';

export type FindingGroup =
  | 'file'
  | 'syntax'
  | 'regex'
  | 'overlap'
  | 'dangerous'
  | 'prose'
  | 'behaviour'
  | 'review';

export interface CodeInfo {
  group: FindingGroup;
  /** The usual severity; some findings raise or lower it case by case. */
  severity: FindingSeverity;
  title: string;
  help: string;
}

/** Every finding `automode critique` can report. Also the `tool.driver.rules` of its SARIF output. */
export const CODES = {
  'read-failed': {
    group: 'file',
    severity: 'error',
    title: 'The file cannot be read',
    help: 'A file named on the command line does not exist or cannot be read. Nothing in it was checked.',
  },
  'invalid-json': {
    group: 'file',
    severity: 'error',
    title: 'The file is not valid JSON',
    help: 'Claude Code does not read a settings file it cannot parse. Fix the syntax at the position given.',
  },
  'invalid-yaml': {
    group: 'file',
    severity: 'error',
    title: 'The file is not valid YAML',
    help: 'automode refuses a rule file it cannot parse. Fix the syntax at the position given.',
  },
  schema: {
    group: 'file',
    severity: 'error',
    title: 'The file does not follow its schema',
    help: 'A value has the wrong type or a key is unknown (settings: permissions.allow/ask/deny are lists of strings; rule files: see schemas/automode-rules.schema.json).',
  },
  'unknown-setting': {
    group: 'file',
    severity: 'warning',
    title: 'A key that is not a Claude Code setting, close to one that is',
    help: 'A key that differs from a Claude Code setting by case or by one or two letters (`permisions`, `alow`, `defaultmode`) is probably a typo: Claude Code ignores the key and everything under it. Keys close to no known setting are not reported, since Claude Code adds settings over time.',
  },
  'unknown-read-service': {
    group: 'file',
    severity: 'warning',
    title: 'automode.readServices names a program whose service reads automode does not know',
    help: "Each name in `automode.readServices` turns on the reads of the user's own services that the program's own allow-list knows option by option. A name that is no program automode knows (a typo) turns on nothing; a program without such a list (a note) allows nothing more until automode learns its reads.",
  },
  'unknown-hook-event': {
    group: 'file',
    severity: 'warning',
    title: 'A hook under an event name Claude Code does not have',
    help: 'Hook event names are case-sensitive (`PostToolUse`, not `posttooluse`); Claude Code never runs hooks listed under a name it does not know, so a misspelt event turns its hooks off without a word. The finding names the event meant when one is close.',
  },
  'unknown-hook-type': {
    group: 'file',
    severity: 'warning',
    title: 'A hook of a type Claude Code does not run',
    help: "A hook entry's `type` is one of `command`, `http`, `prompt`, `agent` or `mcp_tool`; an entry of any other type never runs. (automode's own pipeline runs `command` and `http` hooks.)",
  },
  'unknown-hook-field': {
    group: 'file',
    severity: 'warning',
    title: 'A hook field Claude Code does not have, close to one it has',
    help: "A hook entry's field that differs from one of its type's fields by case or a letter or two (`onfailure`, `statusMesage`) is probably a typo: Claude Code ignores it, so a misspelt `onFailure` lets the action through when the hook fails, and a misspelt `if` runs the hook for every call. Fields close to none are not reported, since Claude Code adds fields over time.",
  },
  'invalid-on-failure': {
    group: 'file',
    severity: 'error',
    title: 'A hook\'s `onFailure` is neither "block" nor "continue"',
    help: '`onFailure` (Claude Code 2.1.295 and later, command and http hooks) says what a hook that cannot start, times out or exits with an unexpected code does: `"block"` blocks the action, `"continue"` (the default) lets it through. Any other value is not one Claude Code knows.',
  },
  'invalid-hook-if': {
    group: 'file',
    severity: 'warning',
    title: "A hook's `if` that is not a permission rule",
    help: "A handler's `if` is a permission rule (`Bash(git *)`, `Edit(src/**)`): the hook runs only for calls that match it. One that does not parse, or names a tool that does not exist, matches nothing the way it reads. automode's pipeline runs a hook whose `if` does not parse for every call rather than never, and one whose `if` names an unknown tool for no call.",
  },
  'automode-hook-fails-open': {
    group: 'behaviour',
    severity: 'warning',
    title: 'An automode hook that lets the call through when it fails',
    help: 'A PreToolUse or PermissionRequest hook that runs automode (a command with `automode hook`, or an http hook to the automode service\'s `/hook` on loopback) without `"onFailure": "block"`: when automode cannot start (node or the file is missing), times out or crashes, Claude Code treats it as a non-blocking error and runs the call as if nobody objected. With `"onFailure": "block"` (Claude Code 2.1.295 and later) such a failure blocks the call instead.',
  },
  'empty-settings': {
    group: 'file',
    severity: 'note',
    title: 'The settings file sets nothing',
    help: 'The file is empty, blank or `{}`. A file without a single character is not valid JSON: automode reads it as `{}`; write `{}` so that every reader agrees, or remove the file.',
  },
  'rule-empty': {
    group: 'syntax',
    severity: 'error',
    title: 'Empty rule',
    help: 'An empty rule or an empty specifier (`Bash()`) matches nothing. Write `Tool` for every use of a tool.',
  },
  'rule-syntax': {
    group: 'syntax',
    severity: 'error',
    title: 'Malformed rule',
    help: 'A permission rule is `Tool` or `Tool(specifier)`, with balanced parentheses (escape literal ones as `\\(`). The rule is ignored.',
  },
  'unknown-tool': {
    group: 'syntax',
    severity: 'warning',
    title: 'Unknown tool',
    help: 'No built-in tool has this name, so the rule never applies. Tool names are case-sensitive; MCP tools are `mcp__server__tool`.',
  },
  'colon-star-middle': {
    group: 'syntax',
    severity: 'warning',
    title: '`:*` in the middle of a pattern',
    help: 'The legacy `:*` suffix is only recognised at the end of a Bash pattern; elsewhere the `:` is literal. Write ` *`.',
  },
  'shell-operator': {
    group: 'syntax',
    severity: 'warning',
    title: 'Bash rule with a shell operator',
    help: 'Commands are split at `|`, `&&`, `||`, `;`, `&`, process and command substitutions and redirections, and each simple command is matched on its own: a rule such as `Bash(curl *|bash*)` never matches the pipeline it describes. Write one rule per command (`Bash(curl *)`, `Bash(bash *)`).',
  },
  'powershell-command': {
    group: 'syntax',
    severity: 'warning',
    title: 'Bash rule for a PowerShell cmdlet',
    help: 'The Bash tool runs bash, which does not run PowerShell cmdlets (`Get-ChildItem`, `Remove-Item`): the rule never matches a command that does what it describes, and as a deny rule it stops nothing. Write the rule for the bash command that does the same (`ls`, `rm`), or for the tool that runs PowerShell.',
  },
  'glued-option-star': {
    group: 'syntax',
    severity: 'warning',
    title: '`*` glued to an option',
    help: '`Bash(git push --force*)` matches every option starting with `--force` (`--force-with-lease` too). As a deny or ask rule automode also matches the option in its other spellings and places (`-f`, after the operands), as it does for `Bash(git push --force *)`. In an allow rule, write `--force *` for the option alone; in a deny or ask rule that would let `--force-with-lease` through, so the critique offers no replacement.',
  },
  'path-rule-ignored': {
    group: 'syntax',
    severity: 'warning',
    title: 'Path rule on a tool that is never checked by path',
    help: 'Path rules are consulted for `Read` (every tool that reads) and `Edit` (every tool that writes) only. A path rule on Write, MultiEdit, NotebookEdit, Glob or Grep never applies.',
  },
  'param-main-field': {
    group: 'syntax',
    severity: 'warning',
    title: '`Tool(param:value)` on a main field',
    help: "`Tool(param:value)` rules cannot target a tool's main field (command, file_path, path, url, pattern): the rule never applies. Use the tool's own specifier.",
  },
  'param-allow-ignored': {
    group: 'syntax',
    severity: 'warning',
    title: '`Tool(param:value)` in an allow list',
    help: 'Parameter rules only apply to deny and ask; as an allow rule it is never consulted.',
  },
  'allow-tool-wildcard': {
    group: 'syntax',
    severity: 'warning',
    title: 'Allow rule naming tools by a wildcard',
    help: 'Claude Code skips an allow rule whose tool name has a wildcard (`*`, `B*`, `mcp__*`), so that no allow rule covers tools nobody named; in deny and ask rules `*` is every tool and `mcp__*` every MCP tool. Name the tools, or `mcp__server` for one server.',
  },
  'webfetch-specifier': {
    group: 'syntax',
    severity: 'warning',
    title: 'WebFetch rule that is not a domain',
    help: 'WebFetch rules take the form `WebFetch(domain:example.com)` (`*.example.com` for subdomains).',
  },
  'automode-ignored': {
    group: 'syntax',
    severity: 'warning',
    title: '`autoMode` in the shared project settings, which Claude Code does not read it from',
    help: 'Auto-mode rules are read from user, local (`.claude/settings.local.json`) and managed settings and `--settings` files, never from the shared project file `.claude/settings.json`: a file committed with the repository cannot set the prose rules the classifier judges by, so that a repository cannot loosen them.',
  },
  'managed-only': {
    group: 'syntax',
    severity: 'warning',
    title: '`allowManagedPermissionRulesOnly` outside managed settings',
    help: 'The setting is only honoured in managed settings.',
  },
  'shipped-rule-unknown': {
    group: 'syntax',
    severity: 'note',
    title: '`disableShippedRules` entry that names no shipped rule',
    help: "An entry of `automode.disableShippedRules` is a shipped rule's text as written in defaults/settings.json (`Bash(git push --force *)`) or a shipped pattern rule's label (defaults/rules.json). This one names neither, so it turns nothing off: check the spelling with `automode config`.",
  },
  'shipped-deny-kept': {
    group: 'syntax',
    severity: 'warning',
    title: 'Project settings cannot turn off a shipped deny rule',
    help: 'A project settings file comes with the repository, so it may only turn off shipped ask rules. Turn a shipped deny rule off in user, local, managed or `--settings` files.',
  },
  'overrides-shipped': {
    group: 'overlap',
    severity: 'note',
    title: 'An allow rule overrides a shipped ask rule',
    help: 'Shipped rules are the lowest tier: an allow rule narrower than a shipped ask rule (not broad, and its own text is matched by the ask) allows what it matches without asking. Intended when you wrote it for that; otherwise narrow it or remove it.',
  },
  'duplicate-rule': {
    group: 'syntax',
    severity: 'warning',
    title: 'Duplicate rule',
    help: "The same rule is written twice in one file (the second copy changes nothing: remove it), in the files of two sources (a note: each copy applies where its file does), or repeats a shipped rule (a note: keep it, Claude Code does not have automode's shipped rules).",
  },
  'pattern-field': {
    group: 'syntax',
    severity: 'warning',
    title: 'Pattern field that does not apply to the tool',
    help: '`command_pattern` only applies to Bash and `path_pattern` only to file tools.',
  },
  'example-mismatch': {
    group: 'syntax',
    severity: 'error',
    title: 'A rule example fails',
    help: "A pattern rule's `match` or `not_match` example disagrees with its regex. An allow rule with a failing example is dropped.",
  },
  'invalid-regex': {
    group: 'regex',
    severity: 'error',
    title: 'The regex does not compile',
    help: 'Pattern rules are JavaScript regular expressions without flags. The rule is ignored.',
  },
  redos: {
    group: 'regex',
    severity: 'error',
    title: 'Super-linear backtracking',
    help: 'The regex can take polynomial or exponential time on some inputs (the attack string shows one); automode refuses it. Make the alternatives or repetitions unambiguous.',
  },
  'unanchored-pattern': {
    group: 'regex',
    severity: 'warning',
    title: 'Unanchored pattern',
    help: 'A regex is searched anywhere in its subject: `rm` also matches `farm` and `echo rm`. Anchor it (`^rm( |$)`, `(^| )rm( |$)`) so it matches the words you mean.',
  },
  'wildcard-inside-word': {
    group: 'regex',
    severity: 'note',
    title: 'Wildcard glued to a word',
    help: '`*` matches any characters, so `Bash(ls*)` also matches `lsof`; write `Bash(ls *)` to stop at the word.',
  },
  'partial-analysis': {
    group: 'regex',
    severity: 'note',
    title: 'Exact analysis is partial',
    help: 'Lookarounds and backreferences that cannot be turned into an automaton make the overlap analysis of this rule approximate: its witnesses are checked with the real regex, but coverage is not claimed.',
  },
  'never-matches': {
    group: 'regex',
    severity: 'warning',
    title: 'The pattern matches nothing',
    help: 'No subject can match this pattern, so the rule never fires.',
  },
  'allow-deny-overlap': {
    group: 'overlap',
    severity: 'note',
    title: 'An allow rule overlaps a deny or ask rule',
    help: 'Some commands the allow rule admits are denied or asked by another rule (which wins). Often intended (a carve-out); the witness shows one such command.',
  },
  'dead-rule': {
    group: 'overlap',
    severity: 'warning',
    title: 'The rule never fires',
    help: 'Everything this rule matches is decided first by stricter rules (deny before ask before allow), so it never decides anything. Remove it or narrow the stricter rules.',
  },
  'redundant-rule': {
    group: 'overlap',
    severity: 'warning',
    title: 'Redundant rule',
    help: 'Another rule with the same decision matches everything this rule matches. Remove the narrower rule.',
  },
  'equivalent-rules': {
    group: 'overlap',
    severity: 'warning',
    title: 'Equivalent rules',
    help: 'Two rules with the same decision match exactly the same subjects, written differently. Keep one.',
  },
  unproved: {
    group: 'overlap',
    severity: 'note',
    title: 'A check stopped at its bound: what it would show stays unproved',
    help: 'Whether a rule never fires (the stricter rules cover it together) or is redundant (another rule covers it) is decided on automata of the rules, each check bounded by a number of states. When deciding it needs more, the check stops and nothing is claimed: the note names the rule, the rules it was checked against, the bound, and what stays unproved. Splitting a large union (fewer overlapping rules, simpler patterns) lets the check finish.',
  },
  'dangerous-allow': {
    group: 'dangerous',
    severity: 'error',
    title: 'An allow rule admits a dangerous command',
    help: "The allow rule matches a command from automode's corpus of dangerous commands (defaults/dangerous-commands.json). Error when the whole configuration then allows it, warning when something else still stops it.",
  },
  'broad-allow': {
    group: 'dangerous',
    severity: 'warning',
    title: 'Broad allow rule',
    help: "The rule's wildcard chooses the code that runs: after an interpreter, a shell, a wrapper, a runner of project scripts, or a remote or container command (`Bash(python3 *)`, `Bash(npm run *)`, `Bash(ssh *)`, `Bash(docker exec *)`, `Bash(source *)`), any code at all. A rule whose fixed words pin what runs (`Bash(node --version *)`, `Bash(xargs grep *)`) is not broad. Auto mode sets broad rules aside on entering it.",
  },
  'prose-empty': {
    group: 'prose',
    severity: 'warning',
    title: 'Empty auto-mode entry',
    help: 'An empty entry tells the classifier nothing. Remove it.',
  },
  'prose-duplicate': {
    group: 'prose',
    severity: 'warning',
    title: 'Duplicate auto-mode entry',
    help: 'The same entry (or the same label) appears twice in a section.',
  },
  'prose-unlabelled': {
    group: 'prose',
    severity: 'note',
    title: 'Auto-mode entry without a label',
    help: 'Entries read `Label: text`; the label names the rule in decisions and in `--label` filters.',
  },
  'defaults-replaced': {
    group: 'prose',
    severity: 'warning',
    title: 'A section without "$defaults" drops the built-in rules',
    help: 'A section that no source writes `"$defaults"` into replaces the built-in entries of that section. Add `"$defaults"` to keep them.',
  },
  'prose-contradiction': {
    group: 'prose',
    severity: 'warning',
    title: 'An allow entry contradicts a deny entry',
    help: 'An `allow` entry and a `soft_deny`/`hard_deny` entry speak about the same action. `hard_deny` always wins; a contradicting `allow` makes a `soft_deny` toothless. Say which exception you mean.',
  },
  'corpus-dangerous-allowed': {
    group: 'behaviour',
    severity: 'error',
    title: 'Dangerous commands are allowed',
    help: "Classified under these rules, commands from automode's corpus of dangerous commands are allowed without asking.",
  },
  'review-clarity': {
    group: 'review',
    severity: 'warning',
    title: 'Model review: clarity',
    help: 'The model found the rule unclear or ambiguous.',
  },
  'review-completeness': {
    group: 'review',
    severity: 'warning',
    title: 'Model review: completeness',
    help: 'The model found cases the rule leaves out.',
  },
  'review-conflict': {
    group: 'review',
    severity: 'warning',
    title: 'Model review: conflict',
    help: 'The model found the rule in conflict with another rule or a default.',
  },
  'review-actionability': {
    group: 'review',
    severity: 'warning',
    title: 'Model review: actionability',
    help: 'The model found that a classifier could not act on the rule as written.',
  },
  'review-unknown-rule': {
    group: 'review',
    severity: 'note',
    title: 'Model review names a rule that does not exist',
    help: 'The model commented on a rule that is not in the files under review; the comment is kept but not tied to a rule.',
  },
  'review-failed': {
    group: 'review',
    severity: 'warning',
    title: 'The model review failed',
    help: 'The model could not be reached or its answer could not be read; the static findings stand on their own.',
  },
} as const satisfies Record<string, CodeInfo>;

export type FindingCode = keyof typeof CODES;

export const FINDING_CODES = Object.keys(CODES) as FindingCode[];
