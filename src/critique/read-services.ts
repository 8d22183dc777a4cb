import { programSpec, serviceReadPrograms } from '../bash/index.js';
import type { LoadedSettings } from '../rules/index.js';
import { closestName, didYouMean } from '../rules/index.js';
import { fromProvenance } from './locations.js';
import type { Finding } from './types.js';

/** `automode.readServices` entries that turn nothing on: no such program, or none of its reads known. */
export function readServiceFindings(settings: LoadedSettings): Finding[] {
  const findings: Finding[] = [];
  const withReads = serviceReadPrograms();
  for (const entry of settings.readServices ?? []) {
    if (withReads.includes(entry.program)) continue;
    const program = programSpec(entry.program) !== undefined;
    const meant = program ? undefined : closestName(entry.program, withReads);
    findings.push({
      code: 'unknown-read-service',
      severity: program ? 'note' : 'warning',
      message: program
        ? `"${entry.program}" has no service-read allow-list: the entry allows nothing more`
        : `"${entry.program}" is no program automode knows: the entry turns nothing on${didYouMean(meant)}`,
      location: fromProvenance(entry.provenance, entry.program),
      related: [],
      fix: meant ? `write "${meant}"` : `programs with service reads: ${withReads.join(', ')}`,
    });
  }
  return findings;
}
