import type { Analysis, SimpleCommand } from '../bash/index.js';
import type { PartVerdict } from './verdict.js';

/**
 * Lines that start processes without end: a loop that may never end (`while`, `until`, `for ((…))`) starting a
 * background job each round, and functions that call themselves, or each other in a cycle, where a call or a
 * command of the cycle runs in the background or in a pipeline (`:(){ :|:& };:`). Each of their commands may be
 * harmless on its own; together they fill the process table.
 */
export function runawayProcesses(analysis: Analysis): PartVerdict[] {
  const parts: PartVerdict[] = [];
  const loop = analysis.commands.find((cmd) => cmd.context.includes('runaway'));
  if (loop) {
    parts.push(ask(loop, 'starts a background job in each round of a loop that may never end'));
  }
  const cycle = spawningCycle(analysis);
  if (cycle) {
    const names = cycle.names.join(', ');
    parts.push(
      ask(
        cycle.at,
        `calls the function${cycle.names.length > 1 ? 's' : ''} ${names} again and again, starting processes each time`,
      ),
    );
  }
  return parts;
}

function ask(cmd: SimpleCommand, reason: string): PartVerdict {
  return {
    command: cmd.id,
    subject: cmd.argv.map((w) => w.value).join(' '),
    decision: 'ask',
    by: 'runaway',
    reason,
  };
}

const SPAWNS = ['background', 'pipeline', 'coproc'] as const;

type Calls = ReadonlyMap<string, { to: string; cmd: SimpleCommand }[]>;

/** The calls the line's functions make to each other, by caller. */
function callGraph(analysis: Analysis): Calls {
  const functions = new Set(analysis.functions);
  const calls = new Map<string, { to: string; cmd: SimpleCommand }[]>();
  for (const cmd of analysis.commands) {
    const from = cmd.inFunction;
    const to = cmd.name?.program;
    if (from === undefined || to === undefined || cmd.name?.path || !functions.has(to)) continue;
    calls.set(from, [...(calls.get(from) ?? []), { to, cmd }]);
  }
  return calls;
}

/** Whether the function reaches itself through the functions it calls (`:(){ :|:& };:`). */
export function callsItself(name: string, analysis: Analysis): boolean {
  return reach(name, name, callGraph(analysis), new Set()) !== undefined;
}

/** A cycle of calls between the line's functions in which a process is started: its functions and one call. */
function spawningCycle(analysis: Analysis): { names: string[]; at: SimpleCommand } | undefined {
  if (analysis.functions.length === 0) return undefined;
  const calls = callGraph(analysis);
  const spawning = new Set<string>();
  for (const cmd of analysis.commands) {
    if (cmd.inFunction !== undefined && SPAWNS.some((flag) => cmd.context.includes(flag)))
      spawning.add(cmd.inFunction);
  }
  for (const start of new Set(analysis.functions)) {
    const path = reach(start, start, calls, new Set());
    if (path?.some((step) => spawning.has(step.from))) {
      return { names: [...new Set(path.map((step) => step.from))], at: path[0]!.cmd };
    }
  }
  return undefined;
}

/** A path of calls from `from` back to `target`, if there is one. */
function reach(
  from: string,
  target: string,
  calls: Calls,
  seen: Set<string>,
): { from: string; cmd: SimpleCommand }[] | undefined {
  seen.add(from);
  for (const call of calls.get(from) ?? []) {
    if (call.to === target) return [{ from, cmd: call.cmd }];
    if (seen.has(call.to)) continue;
    const rest = reach(call.to, target, calls, seen);
    if (rest) return [{ from, cmd: call.cmd }, ...rest];
  }
  return undefined;
}
