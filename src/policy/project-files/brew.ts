import { BREW_AUTO_UPDATES, brewCommand } from '../../bash/index.js';
import type { ProjectPlace } from './place.js';

/** `brew outdated` runs `brew update --auto-update` first, but where the line sets HOMEBREW_NO_AUTO_UPDATE. */
export function brewUpdatesFirst({ cmd }: ProjectPlace): string | undefined {
  const command = brewCommand(cmd.argv);
  if (command === undefined || !BREW_AUTO_UPDATES.has(command)) return undefined;
  if (cmd.argv.some((word) => word.value === '--help' || word.value === '-h')) return undefined;
  const off = cmd.assignments.some(
    (a) =>
      a.name === 'HOMEBREW_NO_AUTO_UPDATE' && a.value.static && /^(?:1|true|yes|on)$/i.test(a.value.value),
  );
  return off
    ? undefined
    : `brew ${command} first runs brew update, which rewrites Homebrew's repositories from the network (HOMEBREW_NO_AUTO_UPDATE=1 leaves it out)`;
}
