import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// A client sends the token only to a listener that proved it holds it: the listener answers a fresh random
// challenge with an HMAC of it under the token, bound to where the client reached it (the loopback port, or a
// Unix socket). A squatter on a port, or one that relays the challenge to the real service through another
// port, cannot answer it.

export const CHALLENGE_HEADER = 'x-automode-challenge';
export const PROOF_HEADER = 'x-automode-proof';

const CHALLENGE = /^[0-9a-f]{64}$/;

export function newChallenge(): string {
  return randomBytes(32).toString('hex');
}

/** Where a connection reached the service: `tcp:PORT` on loopback, `unix` on its socket (mode 0600). */
export function bindingOf(port: number | undefined): string {
  return port ? `tcp:${port}` : 'unix';
}

function proofOf(token: string, challenge: string, binding: string): string {
  return createHmac('sha256', token).update(`${challenge}\n${binding}`).digest('hex');
}

/** Whether a response header proves the token for this challenge, sent where the client connected. */
export function isProof(token: string, challenge: string, binding: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(proofOf(token, challenge, binding));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The service's side: answers a request's challenge, if it carries one, in a response header. */
export function proveTo(token: string, req: IncomingMessage, res: ServerResponse): void {
  const challenge = req.headers[CHALLENGE_HEADER];
  if (typeof challenge !== 'string' || !CHALLENGE.test(challenge)) return;
  res.setHeader(PROOF_HEADER, proofOf(token, challenge, bindingOf(req.socket.localPort)));
}
