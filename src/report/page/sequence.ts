import type { ReportFrame, ReportRecording, ReportSpan } from '../report-types.js';
import { clip, s } from './dom.js';
import type { ListItem } from './frames.js';
import { frameLabel } from './frames.js';
import { msOf } from './time.js';

const rowHeight = 22;
const top = 56;
const lanes = { client: 200, server: 700, stderr: 850 } as const;
const width = 1110;

const isFrame = (item: ListItem): item is ReportFrame => 'dir' in item;

function arrowPath(from: number, to: number, y: number): string {
  const head = from < to ? -8 : 8;
  return `M${from} ${y}H${to}M${to + head} ${y - 4}L${to} ${y}L${to + head} ${y + 4}`;
}

function lifelines(height: number, names: { client: string; server: string }): SVGGElement {
  const group = s('g', { class: 'lifelines' });
  for (const [lane, title] of [['client', names.client], ['server', names.server], ['stderr', 'stderr']] as const) {
    const x = lanes[lane];
    group.append(
      s('rect', { class: `lane-head ${lane}`, x: x - 90, y: 8, width: 180, height: 26, rx: 4 }),
      s('text', { class: 'lane-title', x, y: 26, 'text-anchor': 'middle' }, clip(title, 26)),
      s('line', { class: `lifeline ${lane}`, x1: x, y1: 34, x2: x, y2: height }),
    );
  }
  return group;
}

function frameArrow(frame: ReportFrame, y: number): SVGGElement {
  const [from, to] = frame.dir === 'c2s' ? [lanes.client, lanes.server] : [lanes.server, lanes.client];
  const label = frame.method === 'notifications/progress' && frame.related ? `progress of #${String(frame.related.id)} (seq ${frame.related.seq})` : frameLabel(frame);
  return s(
    'g',
    { class: `arrow ${frame.kind} ${frame.dir}`, 'data-seq': frame.seq, 'data-line': frame.line, 'data-session': frame.session, ...(frame.related ? { 'data-related': frame.related.seq } : {}), tabindex: 0 },
    s('path', { d: arrowPath(from, to, y) }),
    s('text', { x: (from + to) / 2, y: y - 5, 'text-anchor': 'middle' }, clip(label, 72)),
  );
}

/** An activation bar on the receiving lifeline, from a request to its answer: the pair drawn as one. */
function activation(span: ReportSpan, from: number, to: number): SVGRectElement {
  const x = span.dir === 'c2s' ? lanes.server : lanes.client;
  return s('rect', { class: `activation ${span.outcome}`, 'data-seq': span.seq, 'data-session': span.session, x: x - 4, y: from, width: 8, height: Math.max(4, to - from) });
}

/** The sequence diagram of the items shown: one arrow per frame in recorded order, events on their own lane. */
export function sequenceDiagram(recording: ReportRecording, items: ListItem[], open: (line: number) => void): SVGSVGElement {
  const height = top + items.length * rowHeight + 20;
  const session = recording.sessions.length === 1 ? recording.sessions[0] : undefined;
  const names = { client: session?.client?.name ?? 'client', server: session?.server?.name ?? 'server' };
  const svg = s('svg', { class: 'sequence', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'sequence diagram' });
  const rows = new Map<string, number>();
  const body = s('g', { class: 'rows' });
  const start = msOf(recording.start);
  items.forEach((item, index) => {
    const y = top + index * rowHeight + 14;
    const at = msOf(item.t);
    if (at !== undefined && start !== undefined) body.append(s('text', { class: 'offset', x: 8, y: y + 4 }, `+${((at - start) / 1000).toFixed(3)}s`));
    if (isFrame(item)) {
      rows.set(`${item.session}|${item.seq}`, y);
      body.append(frameArrow(item, y));
    } else if (item.kind === 'stderr') {
      body.append(s('g', { class: 'arrow stderr', 'data-seq': item.seq, 'data-line': item.line, 'data-session': item.session, tabindex: 0 }, s('path', { d: arrowPath(lanes.server, lanes.stderr, y) }), s('text', { x: lanes.stderr + 6, y: y + 4 }, clip(item.text.replace(/^\S+ ~~ /, ''), 40))));
    } else {
      body.append(s('g', { class: `event ${item.kind}`, 'data-seq': item.seq, 'data-line': item.line, 'data-session': item.session, tabindex: 0 }, s('rect', { x: 70, y: y - 9, width: width - 80, height: 16, rx: 3 }), s('text', { x: 80, y: y + 3 }, clip(item.text, 110))));
    }
  });
  const bars = s('g', { class: 'activations' });
  for (const span of recording.spans) {
    const from = rows.get(`${span.session}|${span.seq}`);
    if (from === undefined) continue;
    const to = span.answerSeq !== undefined ? rows.get(`${span.session}|${span.answerSeq}`) : undefined;
    bars.append(activation(span, from, to ?? height - 10));
  }
  svg.append(lifelines(height, names), bars, body);
  svg.addEventListener('click', (event) => {
    const target = (event.target as Element).closest('[data-line]');
    if (target) open(Number(target.getAttribute('data-line')));
  });
  svg.addEventListener('keydown', (event) => {
    const target = (event.target as Element).closest('[data-line]');
    if (target && event.key === 'Enter') open(Number(target.getAttribute('data-line')));
  });
  return svg;
}
