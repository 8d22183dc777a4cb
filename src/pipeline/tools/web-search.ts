import { z } from 'zod';
import type { Message, ModelRequest, Stage } from '../../llm/index.js';
import { buildTool, type Tool } from '../tool.js';
import { type WebModel, webModel } from './web-model.js';

/** How many searches one WebSearch call lets the model run (Claude Code's `max_uses`). */
export const WEB_SEARCH_MAX_USES = 8;

export interface WebSearchToolOptions {
  /** The model that runs the search with the API's server-side web search tool; default: the environment's. */
  model?: WebModel;
  /** Which stage's model searches when the request names none (default 1). */
  stage?: Stage;
}

const domains = z.array(z.string());

const input = z.strictObject({
  query: z.string().min(2).describe('The search query to use'),
  allowed_domains: domains.optional().describe('Only include search results from these domains'),
  blocked_domains: domains.optional().describe('Never include search results from these domains'),
});

export type WebSearchInput = z.infer<typeof input>;

const Link = z.object({ title: z.string(), url: z.string() });

export const WebSearchOutputSchema = z.object({
  query: z.string(),
  /** In the answer's order: the model's text, and the links of each search. */
  results: z.array(z.union([z.string(), z.object({ tool_use_id: z.string(), content: z.array(Link) })])),
  durationSeconds: z.number().nonnegative(),
});

export type WebSearchOutput = z.infer<typeof WebSearchOutputSchema>;

/** The request Claude Code sends: the API's web search tool, with the call's domains passed through. */
export function webSearchRequest(args: WebSearchInput): ModelRequest {
  const tool: Extract<NonNullable<ModelRequest['tools']>[number], { type: 'web_search_20250305' }> = {
    type: 'web_search_20250305',
    name: 'web_search',
    max_uses: WEB_SEARCH_MAX_USES,
  };
  if (args.allowed_domains?.length) tool.allowed_domains = args.allowed_domains;
  if (args.blocked_domains?.length) tool.blocked_domains = args.blocked_domains;
  return {
    max_tokens: 4096,
    system: 'You are an assistant for performing a web search tool use',
    messages: [{ role: 'user', content: `Perform a web search for the query: ${args.query}` }],
    tools: [tool],
  };
}

/** The answer's text and, for each `web_search_tool_result` block, its results' titles and URLs. */
export function searchResults(message: Message): WebSearchOutput['results'] {
  const results: WebSearchOutput['results'] = [];
  let text = '';
  const flush = () => {
    if (text.trim()) results.push(text.trim());
    text = '';
  };
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'web_search_tool_result') {
      flush();
      const content = block.content;
      if (Array.isArray(content)) {
        results.push({
          tool_use_id: block.tool_use_id,
          content: content.map((r) => ({ title: r.title, url: r.url })),
        });
      } else {
        results.push(`Web search error: ${content.error_code}`);
      }
    }
  }
  flush();
  return results;
}

/**
 * Searches the web through the Messages API's server-side web search tool, as Claude Code does: the model runs
 * up to 8 searches for the query and the tool result is its text with the titles and URLs of what it found.
 */
export function webSearchTool(options: WebSearchToolOptions = {}): Tool<WebSearchInput, WebSearchOutput> {
  const model = webModel(options.model);
  return buildTool({
    name: 'WebSearch',
    description: 'Search the web',
    prompt: () =>
      [
        '- Allows Claude to search the web and use the results to inform responses',
        '- Provides up-to-date information for current events and recent data',
        '- Returns search result information formatted as search result blocks, including links as markdown hyperlinks',
        '',
        'Usage notes:',
        '  - Domain filtering is supported to include (allowed_domains) or block (blocked_domains) specific websites; not both in one call',
        '  - After answering, list the sources you used as markdown links',
      ].join('\n'),
    inputSchema: input,
    outputSchema: WebSearchOutputSchema,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    interruptBehavior: () => 'cancel',
    validateInput(args) {
      if (args.allowed_domains?.length && args.blocked_domains?.length) {
        return {
          result: false,
          message: 'Cannot specify both allowed_domains and blocked_domains in the same request',
        };
      }
      return { result: true };
    },
    async *call(args, ctx) {
      const started = performance.now();
      const caller = await model();
      const answer = await caller.call(webSearchRequest(args), {
        signal: ctx.signal,
        stage: options.stage ?? 1,
      });
      if (!answer.ok) {
        throw new Error(`WebSearch: the model gave no answer (${answer.kind}: ${answer.message})`);
      }
      const durationSeconds = (performance.now() - started) / 1000;
      yield {
        type: 'result',
        data: { query: args.query, results: searchResults(answer.message), durationSeconds },
      };
    },
    mapToolResult(out) {
      const parts = out.results.map((r) =>
        typeof r === 'string' ? r : `Links: ${JSON.stringify(r.content)}`,
      );
      const body = parts.length > 0 ? parts.join('\n\n') : 'No results found.';
      return `Web search results for query: "${out.query}"\n\n${body}\n\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.`;
    },
  });
}
