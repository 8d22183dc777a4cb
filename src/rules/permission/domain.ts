import type { DomainPattern } from '../types.js';

export function parseDomainPattern(value: string): { pattern: DomainPattern; warning?: string } {
  const source = value.trim();
  let domain = source.toLowerCase().replace(/\.$/, '');
  const subdomains = domain.startsWith('*.');
  if (subdomains) domain = domain.slice(2);
  const pattern = { source, domain, subdomains };
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(domain)) {
    return { pattern, warning: `"${source}" is not a host name: write WebFetch(domain:example.com)` };
  }
  return { pattern };
}

/** Whether a URL or bare host (a port is ignored) is covered by the domain pattern. */
export function matchDomain(pattern: DomainPattern, urlOrHost: string): boolean {
  const host = hostOf(urlOrHost);
  if (host === undefined) return false;
  if (pattern.subdomains) return host.endsWith(`.${pattern.domain}`);
  return host === pattern.domain;
}

function hostOf(urlOrHost: string): string | undefined {
  const text = urlOrHost.trim();
  if (text.includes('://')) {
    try {
      return new URL(text).hostname.toLowerCase().replace(/\.$/, '');
    } catch {
      return undefined;
    }
  }
  return text.replace(/:\d+$/, '').toLowerCase().replace(/\.$/, '');
}
