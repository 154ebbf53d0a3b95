// Letting the held frame under the cursor go: forward, drop, answer with an error, or edit (in the
// user's editor) then forward. An edit is checked here first and by the spy again; what is wrong is
// shown in place, and the text kept, so the next edit starts from it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkEditedFrame } from '../faults/intercept-frame.js';
import { prettyFrame } from './held.js';
import type { HeldItem, HoldEffect } from './held-types.js';
import type { InterceptLink } from './intercept-link.js';
import type { ViewState } from './state.js';

export interface ReleaseOptions {
  link: InterceptLink;
  /** Opens the text in the user's editor; its text once the editor is left, or why not. */
  edit: (text: string) => { text: string } | { problem: string };
  /** Shows (or clears) what is wrong beside the held frame. */
  problem: (item: HeldItem, text: string | undefined) => void;
  /** Edits refused so far, by socket and hold: the next edit starts from them. */
  drafts: Map<string, string>;
}

const ops: Record<HoldEffect, string> = { 'hold-forward': 'forward', 'hold-edit': 'edit', 'hold-drop': 'drop', 'hold-error': 'error' };

export async function releaseHeld(state: ViewState, how: HoldEffect, options: ReleaseOptions): Promise<string> {
  const item = state.held[state.heldCursor];
  if (!item) return 'no frame is held';
  const key = `${item.socket}#${item.frame.hold}`;
  const body: Record<string, unknown> = { op: ops[how], hold: item.frame.hold };
  if (how === 'hold-edit') {
    const before = options.drafts.get(key) ?? prettyFrame(item.frame.frame);
    const edited = options.edit(before);
    if ('problem' in edited) return `✗ ${edited.problem}`;
    if (edited.text.trim() === prettyFrame(item.frame.frame).trim()) return `#${item.frame.hold} was not changed: nothing sent (a lets it go as it is)`;
    options.drafts.set(key, edited.text);
    const checked = checkEditedFrame(edited.text);
    if (!checked.ok) {
      options.problem(item, `${checked.message} (e edits it again)`);
      return `✗ ${checked.message}`;
    }
    body.frame = checked.line;
  }
  const reply = await options.link.request(item.socket, body);
  if (!reply.ok) {
    options.problem(item, reply.message);
    return `✗ ${reply.message}`;
  }
  options.drafts.delete(key);
  return reply.text;
}

/**
 * Runs $VISUAL or $EDITOR (else vi) on a file of its own holding `text` (0600, in a new directory,
 * removed after), the terminal handed to it meanwhile; the text as the editor left it.
 */
export function editInEditor(text: string, env: NodeJS.ProcessEnv, handOver: () => void, takeBack: () => void): { text: string } | { problem: string } {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(join(tmpdir(), 'mcp-spy-edit-'));
  const file = join(dir, 'frame.json');
  writeFileSync(file, `${text}\n`, { mode: 0o600 });
  handOver();
  try {
    // Through the shell, as git runs an editor: EDITOR may hold arguments ("code --wait").
    const result = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit' });
    if (result.error) return { problem: `cannot run the editor ${editor}: ${result.error.message}` };
    if (result.status !== 0) return { problem: `the editor ${editor} exited with ${result.status ?? result.signal}: nothing sent` };
    return { text: readFileSync(file, 'utf8') };
  } finally {
    takeBack();
    rmSync(dir, { recursive: true, force: true });
  }
}
