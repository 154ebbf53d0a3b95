import type { ReportFrame, ReportRecording, ReportSpan } from '../report-types.js';
import { blocks, clip, h, s } from './dom.js';
import type { ListItem } from './frames.js';
import { frameLabel } from './frames.js';
import { msOf } from './time.js';

const rowHeight = 22;
const top = 42;
const lanes = { client: 200, server: 680, stderr: 880 } as const;
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
      s('rect', { class: `lane-head ${lane}`, x: x - 80, y: 8, width: 160, height: 26, rx: 4 }),
      s('text', { class: 'lane-title', x, y: 26, 'text-anchor': 'middle' }, clip(title, 22)),
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
    { class: `arrow ${frame.kind} ${frame.dir}`, 'data-seq': frame.seq, 'data-line': frame.line, 'data-session': frame.session, ...(frame.related ? { 'data-related': frame.related.seq } : {}) },
    s('path', { d: arrowPath(from, to, y) }),
    s('text', { x: (from + to) / 2, y: y - 5 }, clip(label, 72)),
  );
}

/** An activation bar on the receiving lifeline, from a request to its answer: the pair drawn as one. */
function activation(span: ReportSpan, from: number, to: number): SVGRectElement {
  const x = span.dir === 'c2s' ? lanes.server : lanes.client;
  return s('rect', { class: `activation ${span.outcome}`, 'data-seq': span.seq, 'data-session': span.session, x: x - 4, y: from, width: 8, height: Math.max(4, to - from) });
}

function itemElement(item: ListItem, y: number, start: number | undefined): SVGElement[] {
  const out: SVGElement[] = [];
  const at = msOf(item.t);
  if (at !== undefined && start !== undefined) out.push(s('text', { class: 'offset', x: 8, y: y + 4 }, `+${((at - start) / 1000).toFixed(3)}s`));
  const ids = { 'data-seq': item.seq, 'data-line': item.line, 'data-session': item.session };
  if (isFrame(item)) out.push(frameArrow(item, y));
  else if (item.kind === 'stderr') {
    out.push(s('g', { class: 'arrow stderr', ...ids }, s('path', { d: arrowPath(lanes.server, lanes.stderr, y) }), s('text', { x: lanes.stderr + 6, y: y + 4 }, clip(item.text.replace(/^\S+ ~~ stderr\s+/, ''), 36))));
  } else {
    out.push(s('g', { class: `event ${item.kind}`, ...ids }, s('rect', { x: 70, y: y - 9, width: width - 80, height: 16, rx: 3 }), s('text', { x: 80, y: y + 3 }, clip(item.text, 110))));
  }
  return out;
}

/**
 * The sequence diagram of the items shown: one arrow per frame in recorded order, events on their
 * own lane, each request's activation from its arrow to its answer's. Drawn in blocks of rows, so a
 * long recording costs layout and paint only where it is looked at.
 */
export function sequenceDiagram(recording: ReportRecording, items: ListItem[], open: (line: number) => void): HTMLElement {
  const session = recording.sessions.length === 1 ? recording.sessions[0] : undefined;
  const names = { client: session?.client?.name ?? 'client', server: session?.server?.name ?? 'server' };
  const rowOf = new Map<string, number>();
  items.forEach((item, index) => {
    if (isFrame(item)) rowOf.set(`${item.session}|${item.seq}`, index);
  });
  // Each activation is cut into the blocks it crosses.
  const activations: { span: ReportSpan; from: number; to: number }[] = [];
  for (const span of recording.spans) {
    const from = rowOf.get(`${span.session}|${span.seq}`);
    if (from === undefined) continue;
    const to = span.answerSeq !== undefined ? rowOf.get(`${span.session}|${span.answerSeq}`) : undefined;
    activations.push({ span, from, to: to ?? items.length });
  }
  const start = msOf(recording.start);
  const head = s('svg', { class: 'sequence-head', width, height: top, viewBox: `0 0 ${width} ${top}` }, lifelines(top, names));
  const body = blocks(items, (count) => count * rowHeight, (slice, first) => {
    const height = slice.length * rowHeight + (first + slice.length === items.length ? 12 : 0);
    const svg = s('svg', { class: 'sequence', width, height, viewBox: `0 0 ${width} ${height}` });
    for (const lane of Object.values(lanes)) svg.append(s('line', { class: 'lifeline', x1: lane, y1: 0, x2: lane, y2: height }));
    const last = first + slice.length;
    for (const { span, from, to } of activations) {
      if (to < first || from >= last) continue;
      const top = (Math.max(from, first) - first) * rowHeight + (from >= first ? 14 : 0);
      const bottom = (Math.min(to, last) - first) * rowHeight + (to < last ? 14 : 0);
      svg.append(activation(span, top, bottom));
    }
    slice.forEach((item, index) => svg.append(...itemElement(item, index * rowHeight + 14, start)));
    return svg;
  });
  const diagram = h('div', { class: 'sequence-diagram', role: 'img', 'aria-label': 'sequence diagram' }, head, ...body);
  diagram.addEventListener('click', (event) => {
    const target = (event.target as Element).closest('[data-line]');
    if (target) open(Number(target.getAttribute('data-line')));
  });
  return diagram;
}
