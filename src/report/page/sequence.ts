import type { ReportEvent, ReportFrame, ReportRecording, ReportSpan } from '../report-types.js';
import { blocks, h, s } from './dom.js';
import { fitMono, fitText } from './fit.js';
import type { ListItem } from './frames.js';
import { faultMark, frameLabel } from './frames.js';
import { msOf } from './time.js';

const rowHeight = 22;
const top = 42;
type Lane = 'client' | 'server' | 'stderr';
const lanes: Record<Lane, number> = { client: 200, server: 680, stderr: 880 };
const width = 1110;
const laneBox = 160;
const titleFont = '600 12px system-ui, -apple-system, "Segoe UI", sans-serif';

const isFrame = (item: ListItem): item is ReportFrame => 'dir' in item;

/** A row of the diagram: a frame, an event, or a run of consecutive stderr lines drawn as one (`lines` of them). */
type Row = ListItem | (ReportEvent & { lines: number });

const stderrText = (item: ListItem) => ('text' in item ? item.text.replace(/^\S+ ~~ stderr\s+/, '') : '');

/**
 * The rows to draw: routine HTTP entries left out (as wire.log leaves them out), and each run of the
 * server's stderr lines in one row, so a chatty server's log does not stretch the diagram.
 */
function rowsOf(items: readonly ListItem[]): Row[] {
  const rows: Row[] = [];
  for (const item of items) {
    if (!isFrame(item) && item.routine) continue;
    const last = rows.at(-1);
    if (item.kind === 'stderr' && last && last.kind === 'stderr' && last.session === item.session && !isFrame(last)) {
      rows[rows.length - 1] = { ...last, lines: ('lines' in last ? last.lines : 1) + 1 };
      continue;
    }
    rows.push(item);
  }
  return rows;
}

/** "progress 2/4 of #4": which of its request's progress notifications each one is. */
function progressLabels(items: readonly ListItem[]): Map<ListItem, string> {
  const byRequest = new Map<string, ReportFrame[]>();
  for (const item of items) {
    if (!isFrame(item) || item.method !== 'notifications/progress' || !item.related) continue;
    const key = `${item.session}|${item.related.seq}`;
    byRequest.set(key, [...(byRequest.get(key) ?? []), item]);
  }
  const labels = new Map<ListItem, string>();
  for (const frames of byRequest.values())
    frames.forEach((frame, index) => labels.set(frame, `progress ${index + 1}/${frames.length} of #${String(frame.related!.id)}`));
  return labels;
}

function arrowPath(from: number, to: number, y: number): string {
  const head = from < to ? -8 : 8;
  return `M${from} ${y}H${to}M${to + head} ${y - 4}L${to} ${y}L${to + head} ${y + 4}`;
}

function lifelines(height: number, shown: readonly Lane[], names: Record<Lane, string>): SVGGElement {
  const group = s('g', { class: 'lifelines' });
  for (const lane of shown) {
    const x = lanes[lane];
    // A long name is cut to its box; the whole of it is the box's tooltip.
    group.append(
      s('rect', { class: `lane-head ${lane}`, x: x - laneBox / 2, y: 8, width: laneBox, height: 26, rx: 4 }, s('title', {}, names[lane])),
      s('text', { class: 'lane-title', x, y: 26, 'text-anchor': 'middle' }, fitText(names[lane], laneBox - 12, titleFont)),
      s('line', { class: `lifeline ${lane}`, x1: x, y1: 34, x2: x, y2: height }),
    );
  }
  return group;
}

function frameArrow(frame: ReportFrame, y: number, progress: string | undefined): SVGGElement {
  const [from, to] = frame.dir === 'c2s' ? [lanes.client, lanes.server] : [lanes.server, lanes.client];
  const mark = faultMark(frame);
  const label = `${progress ?? frameLabel(frame)}${mark ? ` (${mark.label})` : ''}`;
  return s(
    'g',
    {
      class: `arrow ${frame.kind} ${frame.dir}${mark ? ` ${mark.class}` : ''}`,
      'data-seq': frame.seq,
      'data-line': frame.line,
      'data-session': frame.session,
      ...(frame.related ? { 'data-related': frame.related.seq } : {}),
      ...(mark ? { 'data-fault': frame.fault ?? frame.intercept } : {}),
    },
    s('path', { d: arrowPath(from, to, y) }),
    s('text', { x: (from + to) / 2, y: y - 5 }, fitMono(label, Math.abs(to - from) - 16)),
    ...(mark ? [s('title', {}, mark.title)] : []),
  );
}

/** An activation bar on the receiving lifeline, from a request to its answer: the pair drawn as one. */
function activation(span: ReportSpan, from: number, to: number): SVGRectElement {
  const x = span.dir === 'c2s' ? lanes.server : lanes.client;
  return s('rect', {
    class: `activation ${span.outcome}`,
    'data-seq': span.seq,
    'data-session': span.session,
    x: x - 4,
    y: from,
    width: 8,
    height: Math.max(4, to - from),
  });
}

function itemElement(item: Row, y: number, start: number | undefined, progress: string | undefined): SVGElement[] {
  const out: SVGElement[] = [];
  const at = msOf(item.t);
  if (at !== undefined && start !== undefined) out.push(s('text', { class: 'offset', x: 8, y: y + 4 }, `+${((at - start) / 1000).toFixed(3)}s`));
  const ids = { 'data-seq': item.seq, 'data-line': item.line, 'data-session': item.session };
  if (isFrame(item)) out.push(frameArrow(item, y, progress));
  else if (item.kind === 'stderr') {
    const lines = 'lines' in item ? item.lines : 1;
    const text = lines > 1 ? `${lines} lines: ${stderrText(item)}` : stderrText(item);
    out.push(
      s(
        'g',
        { class: 'arrow stderr', ...ids, ...(lines > 1 ? { 'data-lines': lines } : {}) },
        s('path', { d: arrowPath(lanes.server, lanes.stderr, y) }),
        s('text', { x: lanes.stderr + 6, y: y + 4 }, fitMono(text, width - lanes.stderr - 12)),
      ),
    );
  } else {
    out.push(
      s(
        'g',
        { class: `event ${item.kind}`, ...ids },
        s('rect', { x: 70, y: y - 9, width: width - 80, height: 16, rx: 3 }),
        s('text', { x: 80, y: y + 3 }, fitMono(item.text, width - 100)),
      ),
    );
  }
  return out;
}

/**
 * The sequence diagram of the items shown: one arrow per frame in recorded order, events on their
 * own lane, each request's activation from its arrow to its answer's. Drawn in blocks of rows, so a
 * long recording costs layout and paint only where it is looked at.
 */
export function sequenceDiagram(recording: ReportRecording, shownItems: ListItem[], open: (line: number) => void): HTMLElement {
  const session = recording.sessions.length === 1 ? recording.sessions[0] : undefined;
  const names = { client: session?.client?.name ?? 'client', server: session?.server?.name ?? 'server', stderr: 'stderr' };
  const progress = progressLabels(shownItems);
  const items = rowsOf(shownItems);
  // The stderr lane only where a server has a stderr (stdio), not empty beside an HTTP server.
  const shownLanes: Lane[] =
    recording.events.some((event) => event.kind === 'stderr') || recording.sessions.some((one) => one.transport === 'stdio')
      ? ['client', 'server', 'stderr']
      : ['client', 'server'];
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
  const head = s('svg', { class: 'sequence-head', width, height: top, viewBox: `0 0 ${width} ${top}` }, lifelines(top, shownLanes, names));
  const body = blocks(
    items,
    (count) => count * rowHeight,
    (slice, first) => {
      const height = slice.length * rowHeight + (first + slice.length === items.length ? 12 : 0);
      const svg = s('svg', { class: 'sequence', width, height, viewBox: `0 0 ${width} ${height}` });
      for (const lane of shownLanes) svg.append(s('line', { class: 'lifeline', x1: lanes[lane], y1: 0, x2: lanes[lane], y2: height }));
      const last = first + slice.length;
      for (const { span, from, to } of activations) {
        if (to < first || from >= last) continue;
        const top = (Math.max(from, first) - first) * rowHeight + (from >= first ? 14 : 0);
        const bottom = (Math.min(to, last) - first) * rowHeight + (to < last ? 14 : 0);
        svg.append(activation(span, top, bottom));
      }
      slice.forEach((item, index) => svg.append(...itemElement(item, index * rowHeight + 14, start, progress.get(item))));
      return svg;
    },
  );
  const diagram = h('div', { class: 'sequence-diagram', role: 'img', 'aria-label': 'sequence diagram' }, head, ...body);
  diagram.addEventListener('click', (event) => {
    const target = (event.target as Element).closest('[data-line]');
    if (target) open(Number(target.getAttribute('data-line')));
  });
  return diagram;
}
