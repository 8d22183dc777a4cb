import { forward, forwardTarget, hookEventOf, hookOutput, NO_DECISION } from '../service/index.js';
import type { Io } from './output.js';
import { EXIT } from './output.js';
import type { HookArgs } from './types.js';

/** The timeout of a forwarded call, from AUTOMODE_FORWARD_TIMEOUT_MS when it is a positive number. */
function forwardTimeout(env: NodeJS.ProcessEnv): number | undefined {
  const ms = Number(env.AUTOMODE_FORWARD_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/**
 * All of a stream as UTF-8. node:stream/consumers would do it, but loads the web streams with it, which a hook
 * call started for one answer pays for at every call.
 */
function allOf(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer | string) =>
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
    );
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
  });
}

/** The answer to a call when the hook's own command line is wrong: ask, never a block and never an allow. */
export function badInvocationAnswer(input: string, problem: string): string {
  const event = hookEventOf(input);
  if (!event) return NO_DECISION;
  return hookOutput(event, 'ask', `automode hook was called with a bad option: ${problem}`);
}

/**
 * Answers the call of a hook whose command line is wrong (Claude Code would read exit 2 as a block of every
 * call): reads the input if it can and prints the ask. The caller has reported the problem on stderr.
 */
export async function answerBadInvocation(problem: string, io: Io): Promise<number> {
  const input = await allOf(process.stdin).catch(() => '');
  io.out(badInvocationAnswer(input, problem));
  return EXIT.ok;
}

/** What the process that starts the hook wants done before the classifier loads (it sets V8 flags). */
export interface HookStart {
  beforeDeciding?: () => void;
}

/** What `automode hook` prints for one hook input: the service's answer when forwarding, else decided here. */
export async function hookAnswer(
  input: string,
  args: HookArgs,
  io: Io,
  start: HookStart = {},
): Promise<string> {
  if (args.forward !== undefined) {
    const target = forwardTarget(args.forward);
    if (target && 'error' in target) {
      io.err(`automode: --forward: ${target.error}`);
      return badInvocationAnswer(input, `--forward: ${target.error}`);
    }
    if (target) {
      const forwarded = await forward(input, target, forwardTimeout(process.env));
      if (forwarded.kind === 'answer') return forwarded.body;
      if (forwarded.kind === 'untrusted') io.err(`automode: ${forwarded.reason}; deciding here`);
      if (forwarded.kind === 'bad') {
        io.err(`automode: the service ${forwarded.reason}; no decision`);
        return NO_DECISION;
      }
    }
  }
  // The classifier loads only when this process decides: a call the service answers never pays for it.
  start.beforeDeciding?.();
  const { answerHere } = await import('./hook-local.js');
  return answerHere(input, args, io);
}

/** The hook command itself: reads the hook input on stdin and prints the answer; it always exits 0. */
export async function runHook(args: HookArgs, io: Io, start: HookStart = {}): Promise<number> {
  let input: string;
  try {
    input = await allOf(process.stdin);
  } catch (e) {
    io.out(
      hookOutput('PreToolUse', 'ask', `automode could not read the hook input: ${(e as Error).message}`),
    );
    return EXIT.ok;
  }
  io.out(await hookAnswer(input, args, io, start));
  return EXIT.ok;
}
