import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Classifier, createClassifier } from '../../../src/classifier/index.js';
import { builtinOptions } from '../../../src/rules/settings/builtin.js';
import { loadSettingsFiles } from '../../../src/rules/settings/load.js';
import type { World } from './world.js';

/** The team settings file the commands are also classified under. */
export const TEAM_SETTINGS = {
  permissions: {
    allow: [
      'Bash(git diff *)',
      'Bash(git log *)',
      'Bash(git show *)',
      'Bash(grep *)',
      'Bash(rg *)',
      'Bash(sed *)',
      'Bash(awk *)',
      'Bash(docker *)',
      'Bash(kubectl get *)',
      'Bash(tree *)',
      'Bash(make *)',
      'Bash(find *)',
      'Bash(ls *)',
      'Bash(git status *)',
      'Bash(git -C *)',
      'Bash(git credential-store *)',
      // Commands that write what an archive, a patch or a revision names: run when the write set read at
      // decision time holds no protected path, and their writes checked against it.
      'Bash(tar -xf *)',
      'Bash(patch -p1 *)',
      'Bash(git apply *)',
      'Bash(git checkout *)',
      'Bash(git merge *)',
      'Bash(git init *)',
      'Read(./**)',
    ],
    deny: ['Read(./.env)', 'Read(~/.ssh/**)', 'Bash(rm *)', 'Bash(curl *)', 'Bash(git push *)'],
  },
  // The read-services profile's programs: their service reads run here against no service (kubectl, terraform,
  // aws, gcloud are installed) and their effects are checked like any other allowed command's.
  automode: {
    readServices: ['gh', 'aws', 'az', 'gcloud', 'kubectl', 'helm', 'terraform', 'curl', 'wget'],
  },
};

export type SettingsName = 'defaults' | 'team';
export const SETTINGS_NAMES: readonly SettingsName[] = ['defaults', 'team'];

export interface CallVerdicts {
  defaults: string;
  team: string;
  /** Every shell command of the call is one of the read-only defaults, and the analysis saw all of them. */
  readOnly: boolean;
}

/** Classifiers on the world (its project the working folder, its home the home): shipped rules only, and the team's. */
export class Verdicts {
  private constructor(
    private readonly world: World,
    private readonly classifiers: Record<SettingsName, Classifier>,
  ) {}

  static async create(world: World, scratch: string): Promise<Verdicts> {
    const teamFile = join(scratch, 'team.json');
    writeFileSync(teamFile, JSON.stringify(TEAM_SETTINGS));
    const load = (settingsFiles: string[]) =>
      loadSettingsFiles({
        cwd: world.project,
        home: world.home,
        managedPath: join(scratch, 'managed-settings.json'),
        env: {},
        settingsFiles,
        ...builtinOptions(),
      });
    const [defaults, team] = await Promise.all([load([]), load([teamFile])]);
    return new Verdicts(world, { defaults: createClassifier(defaults), team: createClassifier(team) });
  }

  async of(command: string): Promise<CallVerdicts> {
    const call = { tool: 'Bash', input: { command }, cwd: this.world.project };
    const [defaults, team] = await Promise.all([
      this.classifiers.defaults.classify(call),
      this.classifiers.team.classify(call),
    ]);
    const commands = defaults.parts.filter((p) => p.command !== undefined);
    return {
      defaults: defaults.decision,
      team: team.decision,
      readOnly:
        commands.length > 0 && commands.every((p) => p.readOnly === true) && !defaults.analysis?.opaque,
    };
  }
}

/** The calls whose effects the oracle checks: allowed under either settings, or read-only. */
export function checked(v: CallVerdicts): boolean {
  return v.defaults === 'allow' || v.team === 'allow' || v.readOnly;
}
