const compiled = new Map<string, RegExp>();

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Anchored regex source where `*` matches any characters (newlines included) and all else is literal. */
export function wildcardSource(pattern: string): string {
  return `^${pattern.split('*').map(escapeRegex).join('[\\s\\S]*')}$`;
}

export function cachedRegex(source: string): RegExp {
  let regex = compiled.get(source);
  if (!regex) {
    regex = new RegExp(source);
    compiled.set(source, regex);
  }
  return regex;
}

export function matchWildcard(pattern: string, text: string): boolean {
  return cachedRegex(wildcardSource(pattern)).test(text);
}
