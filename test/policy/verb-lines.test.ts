import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/bash/analyze.js';
import { loadBash } from '../../src/bash/parser.js';
import { verbLines, viewsOf } from '../../src/policy/bash-match.js';

/** A rule about the verb `delete`, as a pattern rule spells one. */
const RULE = '^(aws|az|gcloud|kubectl|gh)( .*)? delete[a-z-]*( |$)';
const MATCH = new RegExp(RULE);

beforeAll(async () => {
  await loadBash();
});

/** Whether the rule still matches one of the lines a verb rule reads (the words as written where there are none). */
async function verbMatches(command: string, rule = RULE): Promise<boolean> {
  const analysis = await analyze(command);
  const cmd = analysis.commands[0]!;
  const v = viewsOf(cmd, '/home/u');
  const lines = verbLines(v, rule) ?? [v.raw];
  return lines.some((line) => new RegExp(rule).test(line));
}

describe('a pattern rule about a verb reads the verb words, not option values that spell one', () => {
  it.each([
    'aws --profile delete ec2 describe-instances',
    'aws --region delete s3 ls',
    'aws --output delete --profile p lambda list-functions',
    'aws s3 ls --profile delete',
    'az --subscription delete vm list',
    'az -o delete vm list',
    'az --query delete vm show',
    'az vm list -g delete',
    'gcloud --project delete compute instances list',
    'gcloud --format delete projects list',
    'gcloud compute instances list --project delete',
    'kubectl -n delete get pods',
    'kubectl --context delete get pods',
    'kubectl get pods -n delete',
    'gh -R delete pr list',
    'gh pr list -R delete',
    'gh issue list --label delete',
  ])('%s: the value is not the verb', async (command) => {
    expect(MATCH.test(command)).toBe(true);
    expect(await verbMatches(command)).toBe(false);
  });

  it.each([
    'aws --profile p ec2 delete-volume --volume-id v',
    'aws --region delete s3api delete-bucket --bucket b',
    'az --subscription s vm delete -n x',
    'az --subscription delete vm delete -n x',
    'az -o delete group delete -n x',
    'gcloud --project delete compute instances delete vm-1',
    'kubectl -n delete delete pod x',
    'kubectl delete pod x -n prod',
    'gh -R delete repo delete o/r',
    // An option the program's grammar does not know keeps the words as written (fail closed).
    'az --no-such-option delete vm list',
    'kubectl --no-such-option delete get pods',
  ])('%s: the verb is still seen', async (command) => {
    expect(await verbMatches(command)).toBe(true);
  });

  it('a rule that names the option reads its value', async () => {
    const rule = '^kubectl( .*)? (-n|--namespace)[= ]prod( |$)';
    expect(await verbMatches('kubectl -n prod get pods', rule)).toBe(true);
    expect(await verbMatches('kubectl --namespace prod get pods', rule)).toBe(true);
  });
});
