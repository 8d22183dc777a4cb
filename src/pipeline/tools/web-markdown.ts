import type TurndownService from 'turndown';
import { loadOptional } from '../optional.js';

/**
 * HTML to Markdown for WebFetch, with turndown (an optional package, loaded on first use, so that importing the
 * pipeline does not load it and its DOM). ATX headings (`## Title`), fenced code blocks with the language of a
 * `class="language-…"`, `-` bullets, inline links; scripts, styles and other parts that are not text are dropped.
 */
let service: Promise<TurndownService> | undefined;

export async function htmlToMarkdown(html: string): Promise<string> {
  service ??= loadOptional('turndown', 'WebFetch (reading an HTML page)', () => import('turndown')).then(
    ({ default: Turndown }) => {
      const turndown = new Turndown({
        headingStyle: 'atx',
        codeBlockStyle: 'fenced',
        bulletListMarker: '-',
        emDelimiter: '*',
      });
      turndown.remove(['script', 'style', 'noscript', 'template', 'iframe']);
      return turndown;
    },
  );
  return (await service).turndown(html).trim();
}

/** Whether a response is HTML: its content type, or, without one, how its text starts. */
export function isHtml(contentType: string, text: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  if (type !== '') return false;
  return /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 1024));
}
