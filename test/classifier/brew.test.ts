import { describe, expect, it } from 'vitest';
import { programSpec } from '../../src/bash/programs/registry.js';
import { describeDecisions } from './helpers.js';

/** brew's commands that list or describe what is installed or available, with options from brew's own source. */
const ALLOWED = [
  'brew list',
  'brew ls --versions node',
  'brew list --cask -1',
  'brew list --formula --full-name',
  'brew list --installed-on-request',
  'brew info node',
  'brew abv node@20',
  'brew info --json=v2 --installed',
  'brew info --cask iterm2 --sizes',
  'brew info --analytics --days=90 wget',
  'brew search ripgrep',
  'brew search --desc "json processor"',
  'brew -S /^gnu-/',
  'brew deps --tree --installed',
  'brew deps -n --include-build openssl@3',
  'brew deps --graph --dot --os=linux --arch=arm64 curl',
  'brew uses --installed --recursive openssl@3',
  'brew leaves -r',
  'brew missing --hide=python@3.12',
  'brew config --help',
  'brew doctor',
  'brew dr --list-checks',
  'brew desc -s "web server"',
  'brew desc --formula jq',
  'brew options --compact ffmpeg',
  'brew info --json=v2 --all',
  'brew deps --all',
  'brew options --all',
  'brew tap-info --json homebrew/core',
  'brew tap-info --installed',
  'brew tap',
  'brew formulae',
  'brew casks',
  'brew commands -q --include-aliases',
  'brew --prefix',
  'brew --prefix --installed node',
  'brew --cellar git',
  'brew --caskroom',
  'brew --cache -s wget',
  'brew --repository',
  'brew --repo homebrew/core',
  'brew --taps',
  'brew --version',
  'brew -v',
  'brew log --oneline -n 5 git',
  'brew log -1 --stat',
  'brew cat jq',
  'brew help',
  'brew help upgrade',
  'brew --help',
  'brew install --help',
  'brew upgrade -h',
  'brew bundle --help',
  'brew analytics',
  'brew analytics state',
  'brew list | grep -c .',
];

/** Writes, browsers, updates, code from files or the project, secrets, external commands. */
const NOT_ALLOWED = [
  'brew',
  'brew install jq',
  'brew install --force jq',
  'brew upgrade',
  'brew uninstall node',
  'brew update',
  'brew tap user/repo',
  'brew tap --repair',
  'brew tap -v',
  'brew untap user/repo',
  'brew cleanup --dry-run',
  'brew outdated',
  'brew fetch wget',
  'brew home wget',
  'brew docs',
  'brew info --github wget',
  'brew search --debian wget',
  'brew bundle check',
  'brew bundle list',
  'brew bundle dump',
  'brew deps --brewfile',
  'brew deps --brewfile=Brewfile.local',
  'brew info ./evil.rb',
  'brew info evil.rb',
  'brew info --cask evil.json',
  'brew info https://example.com/evil.rb',
  'brew info evil--1.0.arm64_sonoma.bottle.tar.gz',
  'brew cat notes.txt',
  'brew cat python@3.12',
  'brew log ../x',
  'brew log -n --output=x git',
  'brew --env',
  'brew config',
  'brew --config',
  'brew config -v',
  'brew shellenv',
  'brew shellenv zsh',
  'brew environment',
  'brew help my-external-command',
  'brew my-external-command',
  'brew sh',
  'brew ruby -e "puts 1"',
  'brew irb',
  'brew analytics off',
  'brew services start postgresql',
  'brew edit wget',
  'brew info --gith wget',
  'brew list "$NAME"',
  'brew shellenv "$(touch x)"',
];

describeDecisions('brew', ALLOWED, NOT_ALLOWED);

describe("brew's grammar", () => {
  // Each command's options as its cmd_args declares them (Homebrew/brew Library/Homebrew/cmd/*.rb).
  it.each([
    ['list', '--formula --cask --full-name --versions --multiple --pinned --poured-from-bottle -1 -l -r -t'],
    ['info', '--analytics --days --category --json --installed --eval-all --variations --sizes'],
    ['deps', '--topological --direct --declared --union --include-requirements --tree --prune --HEAD'],
    ['uses', '--recursive --installed --missing --include-implicit --skip-recommended'],
    ['--cache', '--os --arch --build-from-source --force-bottle --bottle-tag --HEAD'],
  ])('brew %s reads %s', (command, options) => {
    const level = programSpec('brew')!.subcommands![command]!;
    for (const option of options.split(' ')) {
      const name = option.replace(/^--?/, '');
      const known = option.startsWith('--')
        ? level.grammar.long.has(name)
        : level.grammar.flags.includes(name);
      expect(known, option).toBe(true);
    }
  });
});
