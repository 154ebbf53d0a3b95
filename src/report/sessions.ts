import { isObject } from '../protocol/jsonrpc.js';
import { isFrameEntry, messageOf } from '../record/frame-message.js';
import type { RecordEntry } from '../record/schema.js';
import { learnFromFrame, mayTell, newSessionFacts, type SessionFacts } from '../record/session-facts.js';
import type { ReportSession, ReportTool } from './report-types.js';

interface SessionDraft {
  facts: SessionFacts;
  transport?: string;
  frames: number;
}

/** Follows each session of a recording: who spoke, which revision, over what, and the tools listed. */
export function createSessionTracker() {
  const drafts = new Map<string, SessionDraft>();
  const draftOf = (id: string) => {
    let draft = drafts.get(id);
    if (!draft) drafts.set(id, (draft = { facts: newSessionFacts(id), frames: 0 }));
    return draft;
  };
  return {
    add(entry: RecordEntry) {
      const draft = draftOf(typeof entry.session === 'string' ? entry.session : '');
      if (entry.kind === 'spawn' && typeof entry.transport === 'string') draft.transport ??= entry.transport;
      if (entry.kind === 'http' || (isFrameEntry(entry) && entry.dir === 'c2s' && isObject(entry.headers))) draft.transport = 'http';
      if (!isFrameEntry(entry)) return;
      draft.frames++;
      if (mayTell(entry, draft.facts)) learnFromFrame(draft.facts, entry, messageOf(entry));
      else if (typeof entry.rev === 'string') draft.facts.revision = entry.rev;
    },
    sessions(): ReportSession[] {
      return [...drafts]
        .filter(([, draft]) => draft.frames > 0)
        .map(([id, { facts, transport, frames }]) => ({
          id,
          frames,
          ...(transport ? { transport } : {}),
          ...(facts.revision ? { revision: facts.revision } : {}),
          ...(facts.client ? { client: facts.client } : {}),
          ...(facts.server ? { server: facts.server } : {}),
        }));
    },
    /** Every tool any session listed (the first listing of a name wins), with how often it was called. */
    tools(calls: (name: string) => number): ReportTool[] {
      const seen = new Map<string, ReportTool>();
      for (const { facts } of drafts.values()) {
        for (const [name, tool] of facts.tools) {
          if (seen.has(name)) continue;
          seen.set(name, {
            name,
            ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
            ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}),
            calls: calls(name),
          });
        }
      }
      return [...seen.values()];
    },
  };
}
