// What the console knows of the frames spies hold (--intercept), and the keys that let them go: kept
// apart from the held screen so that the state and the actions name them without importing the screen.
import type { HeldFrame } from '../faults/intercept-holds.js';

/** One held frame: the spy's control socket it came over, the spy in words, what is wrong with the last try to let it go. */
export interface HeldItem {
  socket: string;
  spy: string;
  frame: HeldFrame;
  problem?: string;
}

/** What the console does to a held frame; each is a message on the spy's control socket. */
export type HoldEffect = 'hold-forward' | 'hold-edit' | 'hold-drop' | 'hold-error';

/** The keys of the held screen, with what they do (the help lists them too). */
export const heldKeys: readonly (readonly [string, string, HoldEffect])[] = [
  ['a', 'held: let the frame go as it is (Enter too)', 'hold-forward'],
  ['e', 'held: edit the frame in $VISUAL or $EDITOR, then let it go (checked as JSON-RPC first)', 'hold-edit'],
  ['d', 'held: drop the frame: it reaches no one', 'hold-drop'],
  ['x', "held: answer the request with an error in its peer's place", 'hold-error'],
];
