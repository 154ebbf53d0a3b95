import type { EventEntry, FrameEntry, RecordEntry } from '../record/schema.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import type { OwedAnswers } from '../record/owed-answers.js';
import type { SessionFacts } from '../record/session-facts.js';
import type { BaselineTools } from '../wire/correlate/tool-pin.js';

export type Severity = 'error' | 'warn';
export type Level = Severity | 'off';

/**
 * One rule of `check`: its id (public: users turn it off by it, SARIF and JUnit name it), its
 * default severity, the one line a person reads, and a recording that breaks it and one that does not
 * (record lines or `-> {json}` / `<- {json}` capture lines; docs/rules.md and the tests use both).
 */
export interface RuleDefinition {
  id: string;
  severity: Severity;
  summary: string;
  bad: string;
  good: string;
  /** A public account of the attack or pattern the rule looks for. */
  source?: { title: string; url: string };
  /** What `check` is given besides the recording for its examples (a baseline). */
  options?: CheckOptions;
}

/** What `check` may be given besides the recording. */
export interface CheckOptions {
  /** Pinned tool definitions (--baseline): a listed tool that differs is a finding. */
  baseline?: BaselineTools;
}

/** One thing `check` found. */
export interface Finding {
  rule: string;
  level: Severity;
  message: string;
  seq?: number;
  lineNo?: number;
  session?: string;
}

/** What the rules know of one session as the recording is read. */
export interface SessionState {
  facts: SessionFacts;
  /** The requests of the whole recording still owed an answer (one ledger, shared by the sessions). */
  answers: OwedAnswers;
  /** Things said once per session (a broken tool schema), by key. */
  reported: Set<string>;
  /** The revision the server answered initialize with (a header may say otherwise). */
  negotiated?: string;
  /**
   * A stateless HTTP exchange's (recorded as a session of its own, `x-<n>`): the tools its server
   * listed in the exchanges of the recording so far, shared by every exchange that reaches it.
   */
  serverTools?: Map<string, JsonObject>;
  /**
   * tools/call requests of a tool the session had not listed yet (sent before the tools/list answer
   * came): checked at the end against the list the session got, wherever it came in the record.
   */
  unlistedCalls?: EntryContext<FrameEntry>[];
  /** What check was given besides the recording. */
  options: CheckOptions;
  /** The tools each server listed so far in the whole recording, by server name: rules that compare servers read it. */
  servers: Map<string, Map<string, string>>;
}

export type Report = (rule: string, message: string, at?: { seq?: number; lineNo?: number }) => void;

export interface EntryContext<E extends RecordEntry = RecordEntry> {
  entry: E;
  lineNo: number;
  /** The frame's JSON-RPC message, parsed from raw (undefined for events and frames that are not JSON). */
  message: unknown;
  state: SessionState;
  report: Report;
}

export interface EndContext {
  state: SessionState;
  report: Report;
}

/** A family of rules: their definitions and the code that applies them. */
export interface RuleFamily {
  rules: RuleDefinition[];
  /** Called for each frame, after the session's facts have learnt from it. */
  frame?: (context: EntryContext<FrameEntry>) => void;
  /** Called for each entry that is not a frame. */
  event?: (context: EntryContext<EventEntry>) => void;
  /** Called once per session at the end of the recording. */
  end?: (context: EndContext) => void;
}
