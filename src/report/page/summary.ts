import type { ReportPeer, ReportRecording } from '../report-types.js';
import { h } from './dom.js';
import { formatBytes, formatDuration, msOf } from './time.js';

const peerText = (peer: ReportPeer | undefined) => (peer ? [peer.name, peer.version].filter(Boolean).join(' ') : undefined);

const distinct = (values: (string | undefined)[]) =>
  [...new Set(values.filter((value): value is string => value !== undefined && value !== ''))].join(', ') || '–';

/** `1 error`, `2 errors`: as check counts them. */
const counted = (count: number, noun: string) => `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;

function card(name: string, value: string, className = ''): HTMLElement {
  return h('div', { class: `card ${className}`, 'data-name': name }, h('span', { class: 'card-name' }, name), h('span', { class: 'card-value' }, value));
}

/** The strip at the top: who, which revision, over what, how long, how many of each kind, what went wrong. */
export function summaryStrip(recording: ReportRecording): HTMLElement {
  const { sessions, kinds, findings, gaps, limits } = recording;
  const started = msOf(recording.start);
  const ended = msOf(recording.end);
  const protocolErrors = kinds['protocol-error'] ?? 0;
  const toolErrors = kinds['tool-error'] ?? 0;
  // What the wire carried (error answers) is not what check found wrong (findings): each card says
  // which it counts, and only a protocol error is painted as one; a tool's isError is an answer.
  const answers =
    [protocolErrors > 0 ? counted(protocolErrors, 'protocol error') : '', toolErrors > 0 ? counted(toolErrors, 'tool error') : ''].filter(Boolean).join(', ') ||
    'none';
  const cards = [
    card('server', distinct(sessions.map((session) => peerText(session.server)))),
    card('client', distinct(sessions.map((session) => peerText(session.client)))),
    card('revision', distinct(sessions.map((session) => session.revision))),
    card('transport', distinct(sessions.map((session) => session.transport))),
    card('sessions', String(sessions.length)),
    card('duration', started !== undefined && ended !== undefined ? formatDuration(ended - started) : '–'),
    card('error answers', answers, protocolErrors > 0 ? 'bad' : toolErrors > 0 ? 'warn' : ''),
    card('check', `${counted(findings.errors, 'error')}, ${counted(findings.warnings, 'warning')}`, findings.errors > 0 ? 'bad' : ''),
    card('gaps', gaps.count === 0 ? 'none' : `${gaps.count} (${formatBytes(gaps.lost)} lost)`, gaps.count > 0 ? 'bad' : ''),
    card('unanswered', String(recording.unanswered), recording.unanswered > 0 ? 'bad' : ''),
  ];
  const counts = h(
    'div',
    { class: 'kind-counts' },
    ...Object.entries(kinds).map(([kind, count]) => h('span', { class: `badge ${kind}`, 'data-kind': kind, 'data-count': count }, `${kind} ${count}`)),
  );
  const leftOut: string[] = [];
  if (limits.framesLeftOut > 0)
    leftOut.push(
      `${limits.framesLeftOut.toLocaleString('en')} entries past the first ${limits.maxFrames.toLocaleString('en')} are counted but not drawn or listed`,
    );
  if (limits.framesWithoutText > 0)
    leftOut.push(
      `the text of ${counted(limits.framesWithoutText, 'frame')} (${formatBytes(limits.bytesLeftOut)}) was left out past ${formatBytes(limits.maxText)} of frame text`,
    );
  return h(
    'section',
    { id: 'summary' },
    h('div', { class: 'cards' }, ...cards),
    counts,
    leftOut.length > 0
      ? h(
          'p',
          { class: 'left-out', id: 'left-out' },
          `Left out to keep this report small: ${leftOut.join('; ')}. Run mcp-spy report with --max-frames or --max-text to keep more.`,
        )
      : undefined,
  );
}
