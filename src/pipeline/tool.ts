import type { z } from 'zod';
import { canonicalToolName } from '../rules/index.js';
import type { ToolResultContent } from './messages.js';
import type { BashSandbox, SandboxPlan } from './sandbox/sandbox.js';
import { type InputSchema, inputJsonSchema } from './schema.js';
import type { SessionState } from './session.js';
import type { SubagentOutcome, SubagentRequest } from './subagent-types.js';

/** What a tool sees of the call and the session. */
export interface ToolContext {
  toolUseId: string;
  cwd: string;
  /** Fires on cancellation, interruption (for `cancel` tools) and timeout. */
  signal: AbortSignal;
  session: SessionState;
  registry: ToolRegistry;
  /** The session's sandbox for shell commands, when one is configured. */
  sandbox?: BashSandbox;
  /** Runs a sub-agent with the session's permissions and hooks, when an agent loop is there to run it. */
  runSubagent?: (request: SubagentRequest) => Promise<SubagentOutcome>;
}

/** A call that may run in a sandbox: the sandbox, and whether this call runs in it. */
export interface SandboxedCall {
  sandbox: BashSandbox;
  plan: SandboxPlan;
}

export type ValidationResult =
  | { result: true }
  /** Rejected, or (`behavior: 'ask'`) handed to the user to decide. */
  | { result: false; message: string; errorCode?: number; behavior?: 'ask' };

/** The tool's own permission check; `passthrough` leaves the decision to hooks, rules and the classifier. */
export type ToolPermission =
  | { behavior: 'allow'; reason?: string }
  | { behavior: 'ask'; reason: string }
  | { behavior: 'deny'; reason: string }
  | { behavior: 'passthrough' };

export type ToolEvent<O> = { type: 'progress'; data: unknown } | { type: 'result'; data: O };

export interface Tool<I = Record<string, unknown>, O = unknown> {
  readonly name: string;
  readonly aliases: readonly string[];
  /** Old names still accepted; a call through one gets a notice in its result. */
  readonly deprecatedAliases: readonly string[];
  /** One line, for listings and ToolSearch. */
  readonly description: string;
  /** The full description the model reads. */
  prompt(): string;
  readonly inputSchema: InputSchema<I>;
  /**
   * The shape of the tool's output. A PostToolUse hook can replace the output only with a value of this shape;
   * a tool without one keeps its own output.
   */
  readonly outputSchema?: z.ZodType<O>;
  validateInput(input: I, ctx: ToolContext): ValidationResult | Promise<ValidationResult>;
  checkPermissions(input: I, ctx: ToolContext): ToolPermission | Promise<ToolPermission>;
  /** For tools that run commands in a sandbox: how this call will run (undefined: no sandbox is on). */
  sandboxed?(input: I, ctx: ToolContext): SandboxedCall | undefined;
  /** Yields progress, then one result. Throwing is how a tool fails. */
  call(input: I, ctx: ToolContext): AsyncIterable<ToolEvent<O>>;
  mapToolResult(output: O, toolUseId: string): ToolResultContent;
  isConcurrencySafe(input: I): boolean;
  isReadOnly(input: I): boolean;
  /** On user interrupt: `cancel` aborts the call, `block` lets it finish. */
  interruptBehavior(): 'cancel' | 'block';
  /** Left out of the initial tool list; ToolSearch loads its schema on demand. */
  readonly shouldDefer: boolean;
  /** Always in the initial tool list, even where tools are deferred by default. */
  readonly alwaysLoad: boolean;
  /** Results longer than this are saved to disk; the model gets the path and a preview. */
  readonly maxResultSizeChars: number;
}

export interface ToolDef<I, O>
  extends Partial<Omit<Tool<I, O>, 'name' | 'description' | 'inputSchema' | 'call'>> {
  name: string;
  description: string;
  inputSchema: InputSchema<I>;
  call(input: I, ctx: ToolContext): AsyncIterable<ToolEvent<O>>;
}

export const DEFAULT_MAX_RESULT_SIZE_CHARS = 100_000;

/**
 * Fills in the defaults, all on the safe side: no permission of its own (the rules decide, and without a rule
 * the user is asked), not concurrency-safe, not read-only, not interruptible.
 */
export function buildTool<I, O>(def: ToolDef<I, O>): Tool<I, O> {
  return {
    aliases: [],
    deprecatedAliases: [],
    prompt: () => def.description,
    validateInput: () => ({ result: true }),
    checkPermissions: () => ({ behavior: 'passthrough' }),
    mapToolResult: (output) => (typeof output === 'string' ? output : JSON.stringify(output, null, 2)),
    isConcurrencySafe: () => false,
    isReadOnly: () => false,
    interruptBehavior: () => 'block',
    shouldDefer: false,
    alwaysLoad: false,
    maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
    ...def,
  };
}

/** Any tool, whatever its input and output types. */
export type AnyTool = Tool<unknown, unknown>;

export interface Lookup {
  tool: AnyTool;
  /** The deprecated alias the call used, if it used one. */
  deprecated?: string;
}

/** The API `tools` entry for a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The session's tools, by name and alias, with the deferred ones that ToolSearch has loaded. */
export class ToolRegistry {
  private readonly byName = new Map<string, Lookup>();
  private readonly list: AnyTool[] = [];
  private readonly loadedDeferred = new Set<string>();

  constructor(tools: readonly AnyTool[] = []) {
    for (const t of tools) this.add(t);
  }

  add(tool: AnyTool): void {
    if (this.byName.get(tool.name)?.tool === tool) return;
    for (const name of [tool.name, ...tool.aliases, ...tool.deprecatedAliases]) {
      const taken = this.byName.get(name);
      if (taken && taken.tool !== tool)
        throw new Error(`tool name ${name} is used by ${taken.tool.name} already`);
    }
    this.list.push(tool);
    this.byName.set(tool.name, { tool });
    for (const a of tool.aliases) this.byName.set(a, { tool });
    for (const a of tool.deprecatedAliases) this.byName.set(a, { tool, deprecated: a });
  }

  /**
   * By name or alias; a name the tool has gone by in Claude Code finds it too (`FileEdit` finds Edit), as a
   * deprecated name.
   */
  find(name: string): Lookup | undefined {
    const found = this.byName.get(name);
    if (found) return found;
    const old = this.byName.get(canonicalToolName(name));
    return old && { tool: old.tool, deprecated: name };
  }

  all(): readonly AnyTool[] {
    return this.list;
  }

  isDeferred(tool: AnyTool): boolean {
    return tool.shouldDefer && !tool.alwaysLoad;
  }

  /** Whether the model has the tool's schema: it is not deferred, or ToolSearch loaded it. */
  isLoaded(tool: AnyTool): boolean {
    return !this.isDeferred(tool) || this.loadedDeferred.has(tool.name);
  }

  load(tool: AnyTool): void {
    this.loadedDeferred.add(tool.name);
  }

  /** Deferred tools the model has not loaded yet. */
  deferred(): AnyTool[] {
    return this.list.filter((t) => !this.isLoaded(t));
  }

  definition(tool: AnyTool): ToolDefinition {
    return { name: tool.name, description: tool.prompt(), input_schema: inputJsonSchema(tool.inputSchema) };
  }

  /** The `tools` parameter for the next request: every loaded tool. */
  definitions(): ToolDefinition[] {
    return this.list.filter((t) => this.isLoaded(t)).map((t) => this.definition(t));
  }
}
