import type { ToolResultContent } from './messages.js';
import type { ToolRegistry } from './registry.js';
import type { InputSchema } from './schema.js';
import type { SessionState } from './session.js';

/** What a tool sees of the call and the session. */
export interface ToolContext {
  toolUseId: string;
  cwd: string;
  /** Fires on cancellation, interruption (for `cancel` tools) and timeout. */
  signal: AbortSignal;
  session: SessionState;
  registry: ToolRegistry;
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
  validateInput(input: I, ctx: ToolContext): ValidationResult | Promise<ValidationResult>;
  checkPermissions(input: I, ctx: ToolContext): ToolPermission | Promise<ToolPermission>;
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
