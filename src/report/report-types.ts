// The data a report embeds in its page: built in Node from a recording, read by the page code in
// the browser. Types only, so both sides share them and neither pulls in the other's code.

/** One frame as the page shows it: the record entry's annotations and its exact text. */
export interface ReportFrame {
  v: 1;
  seq: number;
  /** Line of the record file: unique across sessions, where seq may repeat. */
  line: number;
  t?: string;
  session: string;
  dir: 'c2s' | 's2c';
  kind: string;
  method?: string;
  id?: string | number | null;
  tool?: string;
  prompt?: string;
  uri?: string;
  latencyMs?: number;
  error?: { code?: unknown; message?: unknown };
  rev?: string;
  notes?: string[];
  bytes?: number;
  /** The request a response, progress or cancellation belongs to. */
  related?: { seq: number; id?: unknown };
  /** The frame's exact text, as on the wire (named as in the record so the filter language reads it). */
  raw?: string;
  /** Set when the text was left out of the report (the size limit), or was not UTF-8 text. */
  textLeftOut?: 'size-limit' | 'not-text';
  /** The fault rule that acted on the frame (`--fault`). */
  fault?: string;
  /** The `--intercept` filter that held the frame (with `origin: "spy"`: edited, or answered, at the console). */
  intercept?: string;
  /** On a frame edited at the intercept: it has its sender's original beside it. */
  edited?: true;
  /** `spy`: the spy made or spoiled this frame (a fault rule's answer); the peer never sent it. */
  origin?: 'spy';
}

/** An entry that is not a frame (stderr, gap, exit, http, ...): its kind and the line `view` prints for it. */
export interface ReportEvent {
  seq: number;
  line: number;
  t?: string;
  session: string;
  kind: string;
  text: string;
  /** An SSE priming event or a plain 202: kept in the list, left out of the diagram as wire.log leaves it out. */
  routine?: true;
}

export interface ReportPeer {
  name?: string;
  version?: string;
}

export interface ReportSession {
  id: string;
  transport?: string;
  revision?: string;
  client?: ReportPeer;
  server?: ReportPeer;
  frames: number;
}

/** A request from send to answer, for the waterfall. */
export interface ReportSpan {
  seq: number;
  session: string;
  dir: 'c2s' | 's2c';
  method?: string;
  tool?: string;
  id?: unknown;
  start?: string;
  end?: string;
  answerSeq?: number;
  outcome: 'response' | 'tool-error' | 'protocol-error' | 'open';
  /** Times and seqs of the progress notifications that point at it. */
  progress: { seq: number; t?: string }[];
}

export interface ReportLatency {
  count: number;
  protocolErrors: number;
  toolErrors: number;
  latency?: { p50: number; p95: number; p99: number; max: number };
}

export interface ReportFinding {
  rule: string;
  level: string;
  message: string;
  seq?: number;
  session?: string;
}

export interface ReportTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
  calls: number;
}

/** What was left out to keep the report small, said in the page. */
export interface ReportLimits {
  maxText: number;
  framesWithoutText: number;
  bytesLeftOut: number;
  maxFrames: number;
  framesLeftOut: number;
}

/** One recording, as its report shows it. */
export interface ReportRecording {
  file: string;
  entries: number;
  start?: string;
  end?: string;
  sessions: ReportSession[];
  frames: ReportFrame[];
  events: ReportEvent[];
  spans: ReportSpan[];
  kinds: Record<string, number>;
  methods: Record<string, ReportLatency>;
  tools: Record<string, ReportLatency>;
  unanswered: number;
  gaps: { count: number; lost: number };
  findings: { errors: number; warnings: number; list: ReportFinding[] };
  inventory: ReportTool[];
  limits: ReportLimits;
}

/** One difference between the two answers to matching requests (replay's diff). */
export interface ReportDiff {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/** A request of either recording and its counterpart in the other, matched as `replay` matches. */
export interface ReportPair {
  method: string;
  name?: string;
  status: 'same' | 'changed' | 'only-before' | 'only-after';
  before?: { seq: number; session: string; answer?: string };
  after?: { seq: number; session: string; answer?: string };
  diff: ReportDiff[];
}

export interface ReportToolPair {
  name: string;
  before?: ReportTool;
  after?: ReportTool;
  status: 'same' | 'changed' | 'only-before' | 'only-after';
}

export interface ReportComparison {
  ignores: string[];
  pairs: ReportPair[];
  tools: ReportToolPair[];
}

/** The whole of what a report page is given. */
export interface ReportData {
  spy: string;
  recordings: ReportRecording[];
  comparison?: ReportComparison;
}
