import { lines, recordLine } from './examples.js';
import type { RuleFamily, SessionState } from './types.js';

const spawn = recordLine(1, { kind: 'spawn', transport: 'stdio', command: ['node', 'server.js'], pid: 4242 });

/** Each stdio run's spawn, by session, until its exit turns up. */
const runs = new WeakMap<SessionState, { seq: number; lineNo: number; exited: boolean }>();

/** Rules on the record of a run itself, rather than on the traffic it holds. */
export const runRules: RuleFamily = {
  rules: [
    {
      id: 'run-without-exit',
      severity: 'warn',
      summary: 'a run of the stdio spy whose record ends without its exit entry: the spy was killed (or is still running), so what came last may be missing',
      bad: spawn,
      good: lines(spawn, recordLine(2, { kind: 'exit', code: 0, signal: null })),
    },
  ],
  event({ entry, lineNo, state }) {
    if (entry.kind === 'spawn' && entry.transport === 'stdio') runs.set(state, { seq: entry.seq, lineNo, exited: false });
    const run = runs.get(state);
    if (entry.kind === 'exit' && run) run.exited = true;
  },
  end({ state, report }) {
    const run = runs.get(state);
    if (run && !run.exited)
      report(
        'run-without-exit',
        'the record of this run ends without an exit entry: the spy was killed or is still running, and what came last may be missing',
        run,
      );
  },
};
