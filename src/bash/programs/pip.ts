import type { ProgramModule } from './module.js';
import { type ConfigCommand, configEffects } from './package-managers.js';

const CONFIG: ConfigCommand = {
  config: ['config'],
  set: [],
  writes: ['set', 'unset', 'edit'],
  reads: ['get', 'list', 'debug'],
  files: (scope) =>
    scope === 'global'
      ? ['/etc/pip.conf', '/etc/xdg/pip/pip.conf']
      : scope === 'site'
        ? [undefined]
        : ['~/.config/pip/pip.conf', '~/.pip/pip.conf'],
  scopeOptions: [],
  scopeFlags: { '--global': 'global', '--site': 'site', '--user': 'user' },
  fileOptions: [],
};

/** pip: what automode knows is its `config` command; anything else may touch any file. */
export const PIP_MODULE: ProgramModule = {
  names: ['pip', 'pip3'],
  configEffects: (cmd) => configEffects(CONFIG, cmd),
  oracle: {
    cases: [
      'pip config set global.index-url x',
      'pip config --site set a b',
      'pip3 config --user unset a',
      'pip config list',
      'pip config get global.index-url',
    ],
  },
};
