/** How a change between two recordings may affect a client and the model that reads the server. */
export type ChangeClass = 'breaking' | 'risky' | 'compatible';

/** The classes, worst first: `--fail-on` and the order of reports follow it. */
export const changeClasses = ['breaking', 'risky', 'compatible'] as const satisfies readonly ChangeClass[];

/** What part of the session a change is in. */
export type ChangeArea = 'server' | 'client' | 'revision' | 'capability' | 'tool' | 'prompt' | 'resource' | 'answer';

/** One difference between the recording before and the one after. */
export interface Change {
  class: ChangeClass;
  area: ChangeArea;
  /** What changed: a tool's name, a capability's path, a request (`tools/call echo`). */
  subject: string;
  /** The change in words: "required argument `limit` added". */
  message: string;
  before?: unknown;
  after?: unknown;
}

export const change = (klass: ChangeClass, area: ChangeArea, subject: string, message: string, values: { before?: unknown; after?: unknown } = {}): Change => ({
  class: klass,
  area,
  subject,
  message,
  ...('before' in values ? { before: values.before } : {}),
  ...('after' in values ? { after: values.after } : {}),
});

/** `--fail-on`: which classes fail the diff. */
export const failOnChoices = ['breaking', 'risky', 'any'] as const;
export type FailOn = (typeof failOnChoices)[number];

export function failsOn(failOn: FailOn, changes: readonly Change[]): boolean {
  if (failOn === 'any') return changes.length > 0;
  if (failOn === 'risky') return changes.some((item) => item.class !== 'compatible');
  return changes.some((item) => item.class === 'breaking');
}
