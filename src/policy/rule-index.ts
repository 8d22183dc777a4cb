import type { Analysis } from '../bash/index.js';
import type {
  Behavior,
  PathContext,
  PatternField,
  PatternRule,
  PermissionRule,
  Rule,
} from '../rules/index.js';
import { matchRuleTool } from '../rules/index.js';
import { ruleArgumentKeys, ruleProgram, viewsOf } from './bash-match.js';
import { basename } from './normalize.js';
import { PathRuleIndex } from './path-index.js';
import { PatternIndex } from './pattern-index.js';

type BashRule = PermissionRule & { parsed: { kind: 'bash' } };

const NONE: readonly never[] = [];

/**
 * Rules grouped so that a lookup only sees rules that can apply: Bash rules by behaviour and program name,
 * everything else by behaviour and tool. Cost stays flat as rules for other programs and tools are added.
 */
export class RuleIndex {
  /** Bash rules by behaviour, then by the basename of their first word. */
  private readonly bashByProgram: Record<Behavior, Map<string, BashRule[]>> = {
    allow: new Map(),
    ask: new Map(),
    deny: new Map(),
  };
  /** Bash rules whose first word has a wildcard (`Bash(* install)`): consulted for every command. */
  private readonly bashAnyProgram = new Map<Behavior, BashRule[]>();
  private readonly byTool = new Map<string, PermissionRule[]>();
  private readonly mcp = new Map<Behavior, PermissionRule[]>();
  private readonly patterns = new Map<string, PatternRule[]>();

  /** Programs with fewer Bash rules than this are not indexed by argument. */
  private readonly argumentIndexFrom: number;

  constructor(
    readonly rules: readonly Rule[],
    options: { argumentIndexFrom?: number } = {},
  ) {
    this.argumentIndexFrom = options.argumentIndexFrom ?? 32;
    for (const rule of rules) {
      if (rule.type === 'pattern') {
        push(this.patterns, `${rule.field}|${rule.behavior}`, rule);
        continue;
      }
      const parsed = rule.parsed;
      if (parsed.kind === 'bash') {
        const program = ruleProgram(parsed.pattern);
        const bashRule = rule as BashRule;
        if (program === undefined) push(this.bashAnyProgram, rule.behavior, bashRule);
        else push(this.bashByProgram[rule.behavior], program, bashRule);
      } else if (parsed.kind === 'mcp') {
        push(this.mcp, rule.behavior, rule);
      } else {
        push(this.byTool, `${parsed.tool}|${rule.behavior}`, rule);
      }
    }
  }

  private readonly bashByArgument: Record<Behavior, Map<string, ArgumentIndex>> = {
    allow: new Map(),
    ask: new Map(),
    deny: new Map(),
  };

  /**
   * Bash pattern rules that may match a command of this program whose views hold these words (all of them
   * when `words` is undefined), in rule order: a program's rules by their first argument (`ruleArgumentKeys`).
   * `words` is called only for a program with enough rules to be indexed by argument.
   */
  bashFor(
    behavior: Behavior,
    program: string,
    words: (() => ReadonlySet<string>) | undefined,
  ): readonly BashRule[] {
    const name = program.includes('/') ? basename(program) : program;
    const own = this.bashByProgram[behavior].get(name) ?? NONE;
    if (words === undefined || own.length < this.argumentIndexFrom) return this.bash(behavior, program);
    const byArgument = this.bashByArgument[behavior];
    let index = byArgument.get(name);
    if (!index) {
      index = argumentIndex(own);
      byArgument.set(name, index);
    }
    const found: number[] = [...index.loose];
    for (const w of words()) {
      const list = index.keyed.get(w);
      if (list) for (const i of list) found.push(i);
    }
    found.sort((a, b) => a - b);
    const out: BashRule[] = [];
    for (let i = 0; i < found.length; i++)
      if (i === 0 || found[i] !== found[i - 1]) out.push(own[found[i]!]!);
    const any = this.bashAnyProgram.get(behavior) ?? NONE;
    return any.length === 0 ? out : [...out, ...any];
  }

  /** Bash pattern rules that may match a command of this program. */
  bash(behavior: Behavior, program: string): readonly BashRule[] {
    const own = this.bashByProgram[behavior].get(program.includes('/') ? basename(program) : program) ?? NONE;
    const any = this.bashAnyProgram.get(behavior) ?? NONE;
    return any.length === 0 ? own : own.length === 0 ? any : [...own, ...any];
  }

  /** Non-Bash-pattern permission rules naming this tool: bare tool names, paths, domains, params. */
  tool(behavior: Behavior, tool: string): readonly PermissionRule[] {
    const named = this.byTool.get(`${tool}|${behavior}`) ?? NONE;
    // `*` (deny and ask only: an allow `*` is never read) names every tool.
    const every = this.byTool.get(`*|${behavior}`);
    const own = every ? [...named, ...every] : named;
    if (!tool.startsWith('mcp__')) return own;
    const mcp = (this.mcp.get(behavior) ?? []).filter((r) => matchRuleTool(r.parsed, tool));
    return [...own, ...mcp];
  }

  private readonly patternsByTool = new Map<string, readonly PatternRule[]>();

  pattern(behavior: Behavior, field: PatternField, tool: string): readonly PatternRule[] {
    if (this.patterns.size === 0) return NONE;
    const key = `${field}|${behavior}|${tool}`;
    let list = this.patternsByTool.get(key);
    if (!list) {
      list = (this.patterns.get(`${field}|${behavior}`) ?? []).filter(
        (r) => r.tool === tool || r.tool === '*',
      );
      this.patternsByTool.set(key, list);
    }
    return list;
  }

  private readonly pathIndexes = new Map<string, PathRuleIndex>();

  /** Path rules of a tool and behaviour, compiled for this working folder and home (cached). */
  paths(tool: string, behavior: Behavior, ctx: PathContext): PathRuleIndex {
    const key = `${tool}\0${behavior}\0${ctx.root ?? ctx.cwd}\0${ctx.home}`;
    let index = this.pathIndexes.get(key);
    if (!index) {
      index = new PathRuleIndex(this.tool(behavior, tool), ctx, { nocase: behavior !== 'allow' });
      if (this.pathIndexes.size > 64) this.pathIndexes.clear();
      this.pathIndexes.set(key, index);
    }
    return index;
  }

  private readonly commandIndexes = new Map<Behavior, PatternIndex>();
  private patternOrder: Map<PatternRule, number> | undefined;

  /** Bash command-pattern rules that may match one of these lines. */
  commandPatterns(behavior: Behavior, lines: readonly string[]): readonly PatternRule[] {
    let index = this.commandIndexes.get(behavior);
    if (!index) {
      index = new PatternIndex(this.pattern(behavior, 'command', 'Bash'));
      this.commandIndexes.set(behavior, index);
    }
    this.patternOrder ??= new Map(this.rules.filter((r) => r.type === 'pattern').map((r, i) => [r, i]));
    return index.candidates(lines, this.patternOrder);
  }

  private readLimits: boolean | undefined;

  /** Whether any Read deny or ask rule, or path pattern deny or ask rule for Bash, exists. */
  hasReadLimits(): boolean {
    this.readLimits ??= (['deny', 'ask'] as const).some(
      (b) => this.tool(b, 'Read').length > 0 || this.pattern(b, 'path', 'Bash').length > 0,
    );
    return this.readLimits;
  }

  hasBashRulesFor(program: string, behavior: Behavior): boolean {
    return this.bash(behavior, program).length > 0;
  }
}

/**
 * The program a rule is filed under: the basename of a Bash pattern rule's fixed first word. Undefined for every
 * other rule (a first word with a wildcard, a tool, path, MCP or pattern rule), which any call may consult.
 */
export function indexedProgram(rule: Rule): string | undefined {
  if (rule.type !== 'permission' || rule.parsed.kind !== 'bash') return undefined;
  return ruleProgram(rule.parsed.pattern);
}

/**
 * The names `RuleIndex.bash` and `bashFor` are asked under while a Bash command is decided: each simple command's
 * program and family. Undefined when any rule may be consulted: the analysis is opaque (each line is then looked
 * up on its own) or a program is only known at run time.
 */
export function lookupNames(analysis: Analysis): Set<string> | undefined {
  if (analysis.opaque) return undefined;
  const names = new Set<string>();
  for (const cmd of analysis.commands) {
    if (cmd.argv.length === 0) continue;
    if (!cmd.argv[0]!.static || cmd.name?.dynamic) return undefined;
    const v = viewsOf(cmd);
    names.add(v.program).add(v.family);
    if (cmd.name?.program) names.add(cmd.name.program);
  }
  return names;
}

/** One program's rules, by position: under each key of `ruleArgumentKeys`, or `loose` when it has none. */
interface ArgumentIndex {
  keyed: Map<string, number[]>;
  loose: number[];
}

function argumentIndex(rules: readonly BashRule[]): ArgumentIndex {
  const index: ArgumentIndex = { keyed: new Map(), loose: [] };
  rules.forEach((rule, i) => {
    const keys = ruleArgumentKeys(rule.parsed.pattern);
    if (keys === undefined) index.loose.push(i);
    else for (const key of keys) push(index.keyed, key, i);
  });
  return index;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
