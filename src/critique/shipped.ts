import { exampleCommand, shippedOverrides } from '../policy/index.js';
import type { LocatedDocument, Rule } from '../rules/index.js';
import { displayName, related, ruleLocation } from './locations.js';
import type { Finding } from './types.js';

/** A note per allow rule that overrides shipped ask rules. */
export async function overrideFindings(
  subjects: readonly Rule[],
  context: readonly Rule[],
  home: string,
  documents: ReadonlyMap<string, LocatedDocument>,
): Promise<Finding[]> {
  return (await shippedOverrides(subjects, context, home)).map(({ allow, asks }) => {
    const names = asks.map(displayName).join(', ');
    const example = exampleCommand(allow);
    return {
      code: 'overrides-shipped',
      severity: 'note',
      message: `allow rule ${displayName(allow)} overrides the shipped ask ${names}: what it matches runs without asking`,
      location: ruleLocation(allow, documents),
      related: asks.map((ask) => related(ask, documents, 'the shipped ask rule it overrides')),
      ...(example === undefined
        ? {}
        : {
            witness: {
              kind: 'command' as const,
              value: example,
              explanation: `asked by ${names}, allowed by ${displayName(allow)}`,
            },
          }),
    };
  });
}
