// Keys that reach the console in one read (a paste, or keys typed faster than it reads them): Ink
// hands such a run over as one input naming no key; each character is the key it stands for.
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/ui/console-actions.js';
import { reduce } from '../../src/ui/reducer.js';
import { initialState, type ViewState } from '../../src/ui/state.js';
import { fieldOf } from '../../src/record/entry-fields.js';
import { memoryLoader, sampleSession, sourceEntries } from '../helpers/ui-records.js';

const file = 'wire.jsonl';
function loaded(lines = sampleSession()) {
  return reduce(initialState({ load: memoryLoader({ [file]: lines }) }), { type: 'entries', items: sourceEntries(file, lines) });
}
const run = (state: ViewState, ...actions: Action[]) => actions.reduce(reduce, state);
const methods = (state: ViewState) =>
  Array.from(state.visible, (index) => state.log.row(index, state.load)).map((row) => `${row.entry.kind} ${fieldOf(row.entry, 'method') ?? ''}`.trim());

describe('the console state: keys that come in one read', () => {
  // What Ink reports for a run of characters (a paste, or keys typed faster than the console reads them): one input, no key named.
  const plain = {
    upArrow: false,
    downArrow: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
  };
  const typed = (input: string): Action => ({ type: 'key', input, key: { ...plain } as Extract<Action, { type: 'key' }>['key'] });

  it('a filter pasted with its Enter is applied; / then Ctrl-U clears the filter being edited', () => {
    let state = run(loaded(), { type: 'open' }, typed('/tool = "echo"\r'));
    expect(state.editing).toBeUndefined();
    expect(methods(state)).toEqual(['request tools/call', 'response tools/call']);
    state = run(state, typed('/\u0015'));
    expect(state.editing).toEqual({ text: '' });
    state = run(state, typed(`kind = tool-error${'\u007f'.repeat('tool-error'.length)}response\r`));
    expect(state.editing).toBeUndefined();
    expect(state.filter.source).toBe('kind = response');
  });

  it('moves then opens: k and Enter in one read open the frame above the newest', () => {
    const state = run(loaded(), { type: 'open' }, typed('k\r'));
    expect(state.screen).toBe('inspector');
    expect(state.cursor).toBe(state.visible.length - 2);
  });

  it('a Tab in a run switches the screen; a Ctrl-C in a run quits', () => {
    expect(run(loaded(), typed('\t\t')).screen).toBe('tools');
    expect(run(loaded(), { type: 'open' }, typed('k\u0003')).effect?.name).toBe('quit');
  });
});
