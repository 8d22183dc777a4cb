/**
 * Checks on the text of a `Bash(...)` rule. The analyzer matches rules against one simple command at a time,
 * so shell syntax that joins or nests commands, or redirects them, describes something no single command is.
 */

export interface BashRuleIssue {
  code: 'legacy-colon-star' | 'shell-operator' | 'glued-option-star' | 'powershell-command';
  message: string;
}

const OPERATORS = [
  '||',
  '&&',
  '|&',
  '<(',
  '>(',
  '$(',
  '>>',
  '<<<',
  '<<',
  '&>',
  '>|',
  '>&',
  '<&',
  '|',
  ';',
  '&',
  '>',
  '<',
  '`',
];

/** Shell operators outside quotes (substitutions inside double quotes too), in order of appearance. */
export function shellOperators(source: string): string[] {
  const found: string[] = [];
  let quote: '' | "'" | '"' = '';
  const words = source.split(' ');
  const findExec = words.some((w) => /^-(exec|execdir|ok|okdir)$/.test(w));
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\' && quote !== "'") {
      i++;
      continue;
    }
    if (quote === "'") {
      if (c === "'") quote = '';
      continue;
    }
    if (c === quote) {
      quote = '';
      continue;
    }
    if (quote === '' && (c === "'" || c === '"')) {
      quote = c;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op || (quote === '"' && op !== '$(' && op !== '`')) continue;
    // find's `-exec ... ;` terminator is a word of its own: the argv holds it when the command escapes it.
    if (op === ';' && findExec && (source[i - 1] ?? ' ') === ' ' && (source[i + 1] ?? ' ') === ' ') continue;
    if (!found.includes(op)) found.push(op);
    i += op.length - 1;
  }
  return found;
}

/**
 * The simple commands a rule with shell operators names, each as a rule of its own. A substitution is a command
 * of its own, and in the command around it an argument whose value is only known at run time (`*`).
 */
export function splitCommands(source: string): string[] {
  const done: string[] = [];
  const stack: string[] = [];
  let current = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const opens = /^[<>$]\(/.test(source.slice(i, i + 2));
    if (opens || (c === '`' && !current.startsWith('`'))) {
      stack.push(`${current}*`);
      current = c === '`' ? '`' : '';
      if (opens) i++;
    } else if ((c === ')' || c === '`') && stack.length > 0) {
      done.push(current.replace(/^`/, ''));
      current = stack.pop()!;
    } else {
      current += c;
    }
  }
  return [current, ...stack, ...done]
    .map((text) => text.replace(/\d*(>>|>\||&>|>&|<&|>|<<<|<<|<)\s*[^\s;|&]*/g, ' '))
    .flatMap((text) => text.split(/\|\||&&|\|&|[|;&]/))
    .map((part) => part.trim().replace(/\s+/g, ' ').replace(/^\*$/, ''))
    .filter((part) => part !== '');
}

/** An option with `*` glued to it (`--force*`): the words the rule's star covers change. */
export function gluedOptionStar(source: string): string | undefined {
  // A final `:*` is the legacy suffix, ` *` in another spelling: `--version:*` is `--version *`.
  const body = source.endsWith(':*') ? source.slice(0, -2) : source;
  return body.split(' ').find((word) => /^-{1,2}[A-Za-z0-9][^*\s]*\*$/.test(word));
}

/** PowerShell's approved verbs, as `Get-Verb` lists them (PowerShell 7). */
const POWERSHELL_VERBS = new Set(
  (
    'Add Clear Close Copy Enter Exit Find Format Get Hide Join Lock Move New Open Optimize Pop Push Redo Remove ' +
    'Rename Reset Resize Search Select Set Show Skip Split Step Switch Undo Unlock Watch Backup Checkpoint ' +
    'Compare Compress Convert ConvertFrom ConvertTo Dismount Edit Expand Export Group Import Initialize Limit ' +
    'Merge Mount Out Publish Restore Save Sync Unpublish Update Approve Assert Build Complete Confirm Deny ' +
    'Deploy Disable Enable Install Invoke Register Request Restart Resume Start Stop Submit Suspend Uninstall ' +
    'Unregister Wait Debug Measure Ping Repair Resolve Test Trace Connect Disconnect Read Receive Send Write ' +
    'Block Grant Protect Revoke Unblock Unprotect Use'
  ).split(' '),
);

/** Built-in cmdlets whose verb is not an approved one. */
const OTHER_CMDLETS = new Set(['Where-Object', 'ForEach-Object', 'Sort-Object', 'Tee-Object']);

const BASH_COUNTERPART: Record<string, string> = {
  'Get-ChildItem': 'ls',
  'Get-Content': 'cat',
  'Set-Content': 'tee',
  'Remove-Item': 'rm',
  'Copy-Item': 'cp',
  'Move-Item': 'mv',
  'New-Item': 'mkdir or touch',
  'Set-Location': 'cd',
  'Get-Location': 'pwd',
  'Select-String': 'grep',
  'Invoke-WebRequest': 'curl',
  'Invoke-RestMethod': 'curl',
  'Write-Output': 'echo',
  'Get-Process': 'ps',
  'Stop-Process': 'kill',
};

/**
 * A PowerShell cmdlet (`Get-ChildItem`) as the command of a Bash rule. Only the cmdlet spelling is taken, an
 * approved verb and a capitalised noun: Unix programs with a dash in their name (`update-alternatives`,
 * `git-lfs`) are lower case.
 */
export function powershellCmdlet(source: string): string | undefined {
  const first = source.split(' ')[0]!.replace(/:\*$/, '');
  if (OTHER_CMDLETS.has(first)) return first;
  const m = /^([A-Z][a-z]+(?:[A-Z][a-z]+)?)-[A-Z][A-Za-z0-9]*$/.exec(first);
  return m && POWERSHELL_VERBS.has(m[1]!) ? first : undefined;
}

export function bashRuleIssues(source: string): BashRuleIssue[] {
  const issues: BashRuleIssue[] = [];
  const cmdlet = powershellCmdlet(source);
  if (cmdlet) {
    const counterpart = BASH_COUNTERPART[cmdlet];
    issues.push({
      code: 'powershell-command',
      message:
        `${cmdlet} is a PowerShell cmdlet: the Bash tool runs bash, which has no such command, so this rule ` +
        `never matches a command that does what it describes` +
        (counterpart ? ` (the bash command for it is ${counterpart})` : ''),
    });
  }
  const operators = shellOperators(source);
  if (operators.length > 0) {
    const parts = splitCommands(source);
    const instead =
      parts.length > 0 ? `; write one rule per command: ${parts.map((p) => `Bash(${p})`).join(', ')}` : '';
    issues.push({
      code: 'shell-operator',
      message:
        `the rule holds ${operators.map((o) => `"${o}"`).join(', ')}: commands are split at shell operators and ` +
        `matched one simple command at a time, so this rule never matches what it describes${instead}`,
    });
  }
  const glued = gluedOptionStar(source);
  if (glued) {
    const option = glued.slice(0, -1);
    issues.push({
      code: 'glued-option-star',
      message:
        `"${glued}" matches every option that starts with ${option}, longer ones too, not only ${option}; ` +
        `as a deny or ask rule it also matches the option's other spellings and places; "${option} *" is ` +
        `the option alone, which in a deny or ask rule lets the longer options through`,
    });
  }
  return issues;
}
