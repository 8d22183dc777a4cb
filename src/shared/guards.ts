export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function isStrings(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

export function isStringRecord(x: unknown): x is Record<string, string> {
  return isObject(x) && Object.values(x).every((v) => typeof v === 'string');
}
