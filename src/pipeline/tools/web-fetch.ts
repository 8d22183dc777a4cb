import { z } from 'zod';
import type { ModelRequest, Stage } from '../../llm/index.js';
import { buildTool, type Tool } from '../tool.js';
import { htmlToMarkdown, isHtml } from './web-markdown.js';
import { answerText, type WebModel, webModel } from './web-model.js';

/** Claude Code's limits: a URL of at most 2,000 characters, a body of at most 10 MB, Markdown cut at 100,000. */
export const WEB_FETCH_MAX_URL_CHARS = 2000;
export const WEB_FETCH_MAX_BYTES = 10 * 1024 * 1024;
export const WEB_FETCH_MAX_MARKDOWN_CHARS = 100_000;
export const WEB_FETCH_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface WebFetchToolOptions {
  /** The model that reads the page for the prompt; default: the environment's model client. */
  model?: WebModel;
  /** Which stage's model reads the page when the request names none (default 1, the fast model). */
  stage?: Stage;
  /** Limit for the whole fetch, redirects and body included (default 60 s). */
  timeoutMs?: number;
  /** Largest body read; a larger one is an error and its connection is closed (default 10 MB). */
  maxBytes?: number;
  /** Markdown past this is cut before it goes to the model (default 100,000 characters). */
  maxMarkdownChars?: number;
  /** The fetch function (default Node's own): a proxy, a resolver, a test's counter. */
  fetch?: typeof fetch;
}

const input = z.strictObject({
  url: z.url().describe('The URL to fetch content from'),
  prompt: z.string().describe('The prompt to run on the fetched content'),
});

export type WebFetchInput = z.infer<typeof input>;

export const WebFetchOutputSchema = z.object({
  /** The URL whose answer was read (after same-host redirects), or the one that redirected elsewhere. */
  url: z.string(),
  code: z.number().int(),
  codeText: z.string(),
  bytes: z.number().int().nonnegative(),
  /** The model's answer, or the redirect notice. */
  result: z.string(),
  durationMs: z.number().nonnegative(),
});

export type WebFetchOutput = z.infer<typeof WebFetchOutputSchema>;

/**
 * Loopback hosts keep `http:`, so that a local server can be fetched (and tested); every other `http:` URL is
 * fetched over `https:`, as Claude Code does.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function upgradeToHttps(url: URL): URL {
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return url;
  const upgraded = new URL(url.href);
  upgraded.protocol = 'https:';
  return upgraded;
}

/** A redirect is followed only to the same scheme, host and port, without credentials. */
export function isSameHostRedirect(from: URL, to: URL): boolean {
  return (
    from.protocol === to.protocol &&
    from.hostname.toLowerCase() === to.hostname.toLowerCase() &&
    from.port === to.port &&
    to.username === '' &&
    to.password === ''
  );
}

/** What the model reads when the URL redirects to another host (Claude Code's notice). */
export function redirectNotice(original: string, target: string, status: number, prompt: string): string {
  return [
    'REDIRECT DETECTED: The URL redirects to a different host.',
    '',
    `Original URL: ${original}`,
    `Redirect URL: ${target}`,
    `Status: ${status}`,
    '',
    'To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:',
    `- url: "${target}"`,
    `- prompt: "${prompt}"`,
  ].join('\n');
}

/** The request that asks the model about the page. */
export function webFetchRequest(markdown: string, prompt: string): ModelRequest {
  const content = [
    'Web page content:',
    '---',
    markdown,
    '---',
    '',
    prompt,
    '',
    'Provide a concise response based only on the content above. Quote at most 125 characters from the page at a time, in quotation marks; say everything else in your own words.',
  ].join('\n');
  return { max_tokens: 4096, messages: [{ role: 'user', content }] };
}

type Fetched =
  | { kind: 'page'; url: URL; status: number; statusText: string; contentType: string; body: Uint8Array }
  | { kind: 'redirect'; url: URL; target: URL; status: number; statusText: string };

/**
 * Fetches a URL, following redirects within the same host. Every response is read as a stream with a byte
 * count: past `maxBytes` the request is aborted (its connection closed) and the fetch fails.
 */
async function fetchPage(
  start: URL,
  signal: AbortSignal,
  options: { maxBytes: number; fetch: typeof fetch },
): Promise<Fetched> {
  let url = start;
  for (let hops = 0; ; hops++) {
    const abort = new AbortController();
    const both = AbortSignal.any([signal, abort.signal]);
    const response = await options.fetch(url.href, {
      redirect: 'manual',
      signal: both,
      headers: { accept: 'text/markdown, text/html, */*', 'user-agent': 'automode-webfetch' },
    });
    const { status, statusText } = response;
    if (REDIRECT_STATUSES.has(status)) {
      abort.abort();
      const location = response.headers.get('location');
      if (!location) throw new Error(`${url.href} answered ${status} without a Location header`);
      const target = new URL(location, url);
      if (!isSameHostRedirect(url, target)) return { kind: 'redirect', url, target, status, statusText };
      if (hops >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects from ${start.href}`);
      url = target;
      continue;
    }
    const tooBig = () => {
      abort.abort();
      return new Error(`the response of ${url.href} is larger than ${options.maxBytes} bytes`);
    };
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > options.maxBytes) throw tooBig();
    const body = await readLimited(response, options.maxBytes, tooBig);
    if (status < 200 || status > 299) {
      throw new Error(`${url.href} answered ${status}${statusText ? ` ${statusText}` : ''}`);
    }
    const contentType = response.headers.get('content-type') ?? '';
    return { kind: 'page', url, status, statusText, contentType, body };
  }
}

async function readLimited(response: Response, max: number, tooBig: () => Error): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      const error = tooBig();
      await reader.cancel().catch(() => undefined);
      throw error;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function isText(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type === '' ||
    type.startsWith('text/') ||
    /[+/](json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|toml)$/.test(type)
  );
}

/**
 * Fetches a URL, turns its HTML into Markdown and lets a small model answer the call's prompt about it, as Claude
 * Code's WebFetch does. A redirect to another host is not followed: the model is told where it leads and may
 * fetch that URL, which is then decided on its own. The permission rules (`WebFetch(domain:…)`) decide before
 * any request; the sandbox of Bash does not apply (WebFetch runs in the agent's own process, as in Claude Code).
 */
export function webFetchTool(options: WebFetchToolOptions = {}): Tool<WebFetchInput, WebFetchOutput> {
  const model = webModel(options.model);
  const timeoutMs = options.timeoutMs ?? WEB_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? WEB_FETCH_MAX_BYTES;
  const maxMarkdown = options.maxMarkdownChars ?? WEB_FETCH_MAX_MARKDOWN_CHARS;
  const doFetch = options.fetch ?? globalThis.fetch;
  return buildTool({
    name: 'WebFetch',
    description: 'Fetch a URL and answer a prompt about its content',
    prompt: () =>
      [
        '- Fetches content from a specified URL and processes it using an AI model',
        '- Takes a URL and a prompt as input',
        '- Fetches the URL content, converts HTML to markdown',
        '- Processes the content with the prompt using a small, fast model',
        "- Returns the model's response about the content",
        '',
        'Usage notes:',
        '  - The URL must be a fully-formed valid URL',
        '  - HTTP URLs will be automatically upgraded to HTTPS (except loopback hosts)',
        '  - The prompt should describe what information you want to extract from the page',
        '  - This tool is read-only and does not modify any files',
        '  - Results may be summarized if the content is very large',
        '  - When a URL redirects to a different host, the tool will inform you and provide the redirect URL. You should then make a new WebFetch request with the redirect URL to fetch the content.',
      ].join('\n'),
    inputSchema: input,
    outputSchema: WebFetchOutputSchema,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    interruptBehavior: () => 'cancel',
    validateInput(args) {
      if (args.url.length > WEB_FETCH_MAX_URL_CHARS) {
        return { result: false, message: `The URL is longer than ${WEB_FETCH_MAX_URL_CHARS} characters.` };
      }
      let url: URL;
      try {
        url = new URL(args.url);
      } catch {
        return { result: false, message: `Invalid URL "${args.url}". The URL provided could not be parsed.` };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return { result: false, message: `WebFetch fetches http and https URLs, not ${url.protocol}` };
      }
      if (url.username || url.password) {
        return { result: false, message: 'The URL must not carry a user name or password.' };
      }
      return { result: true };
    },
    async *call(args, ctx) {
      const started = performance.now();
      const url = upgradeToHttps(new URL(args.url));
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
      let fetched: Fetched;
      try {
        fetched = await fetchPage(url, signal, { maxBytes, fetch: doFetch });
      } catch (error) {
        if (!ctx.signal.aborted && signal.aborted) {
          throw new Error(`WebFetch of ${url.href} timed out after ${timeoutMs} ms`);
        }
        throw error;
      }
      const durationMs = () => Math.round(performance.now() - started);
      if (fetched.kind === 'redirect') {
        const result = redirectNotice(fetched.url.href, fetched.target.href, fetched.status, args.prompt);
        const { status: code, statusText: codeText } = fetched;
        yield {
          type: 'result',
          data: { url: fetched.url.href, code, codeText, bytes: 0, result, durationMs: durationMs() },
        };
        return;
      }
      if (!isText(fetched.contentType)) {
        throw new Error(`${fetched.url.href} is ${fetched.contentType}: WebFetch reads text and HTML only`);
      }
      const text = new TextDecoder().decode(fetched.body);
      const markdown = isHtml(fetched.contentType, text) ? await htmlToMarkdown(text) : text;
      const cut =
        markdown.length > maxMarkdown ? `${markdown.slice(0, maxMarkdown)}\n\n[Content truncated]` : markdown;
      const caller = await model();
      const stage = options.stage ?? 1;
      const answer = await caller.call(webFetchRequest(cut, args.prompt), { signal: ctx.signal, stage });
      const result = answerText(answer, `WebFetch of ${fetched.url.href}`);
      yield {
        type: 'result',
        data: {
          url: fetched.url.href,
          code: fetched.status,
          codeText: fetched.statusText,
          bytes: fetched.body.byteLength,
          result,
          durationMs: durationMs(),
        },
      };
    },
    mapToolResult: (out) => out.result,
  });
}
