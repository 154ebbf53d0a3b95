import { tableOf, lookup } from '../protocol/own-table.js';
import { eventKinds } from '../record/schema.js';
import { kindStyles } from '../render/styles.js';
import { frameKinds } from '../wire/classify/kinds.js';

/** Every kind an entry may have: the frame kinds, then the event kinds. */
export const knownKinds: readonly string[] = [...frameKinds, ...eventKinds];

/**
 * The kind a user names: its own name, or the label the log and the live view show for it
 * (`proto-error`, `notify`, `INVALID`), in any case. What a user sees is what a filter takes.
 */
const byName = tableOf(
  knownKinds.flatMap((kind) => {
    const label = kindStyles[kind as keyof typeof kindStyles].label.toLowerCase();
    return label === kind ? [[kind, kind] as const] : [[kind, kind] as const, [label, kind] as const];
  }),
);

export function kindNamed(name: string): string | undefined {
  return lookup(byName, name.toLowerCase());
}

/** The kinds in words, each with the label the log shows when it differs: for messages that list them. */
export const kindsInWords = knownKinds
  .map((kind) => {
    const label = kindStyles[kind as keyof typeof kindStyles].label;
    return label.toLowerCase() === kind ? kind : `${kind} (${label})`;
  })
  .join(', ');
