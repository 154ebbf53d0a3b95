import type { ReportRecording, ReportSpan } from '../report-types.js';
import { roundStep, tickLabel } from './axis.js';
import { blocks, h, s } from './dom.js';
import { fitMono } from './fit.js';
import { formatDuration, msOf } from './time.js';

const rowHeight = 18;
const top = 30;
/** Below this the drawing scrolls rather than squeeze its bars to nothing. */
const narrowest = 320;

/** Where things go across a drawing `width` px wide: the labels' column, then the chart, then room for a time. */
function layoutOf(width: number) {
  const labelWidth = Math.min(250, Math.round(width * 0.32));
  return { width, labelWidth, chart: width - labelWidth - 70 };
}
type Layout = ReturnType<typeof layoutOf>;

function spanLabel(span: ReportSpan): string {
  const subject = span.tool ? ` ${span.tool}` : '';
  return `${span.dir === 's2c' ? '← ' : ''}${span.method ?? '?'}${subject} #${String(span.id)}`;
}

/** The axis: where each time falls, and ticks at round steps (a capture, untimed, counts requests). */
function timeAxis(startMs: number, endMs: number, { labelWidth, chart }: Layout, timed: boolean) {
  const total = Math.max(1, endMs - startMs);
  const x = (ms: number) => labelWidth + ((ms - startMs) / total) * chart;
  const ticks = s('g', { class: 'axis' });
  const step = timed ? roundStep(total) : Math.max(1, Math.ceil(roundStep(total)));
  for (let value = 0; value <= total + step * 1e-9; value += step) {
    const at = labelWidth + (value / total) * chart;
    ticks.append(
      s('line', { x1: at, y1: top - 6, x2: at, y2: top - 2 }),
      s('text', { x: at, y: top - 10, 'text-anchor': 'middle' }, timed ? tickLabel(value) : String(value)),
    );
  }
  return { x, ticks };
}

/**
 * The waterfall: one bar per request from send to answer on a time axis, coloured by outcome, with
 * its progress as ticks; an unanswered request runs to the end of the recording, open. Drawn in
 * blocks of rows, as the sequence diagram is.
 */
export function waterfall(recording: ReportRecording, spans: ReportSpan[], open: (seq: number, session: string) => void, panelWidth: number): HTMLElement {
  const layout = layoutOf(Math.max(narrowest, Math.floor(panelWidth)));
  const { width, labelWidth } = layout;
  // A capture has no times: its requests stand in order, each one step long.
  const timed = msOf(recording.start) !== undefined;
  const startMs = timed ? msOf(recording.start)! : 0;
  const endMs = timed ? (msOf(recording.end) ?? startMs) : spans.length;
  const { x, ticks } = timeAxis(startMs, endMs, layout, timed);
  const bar = (span: ReportSpan, index: number, y: number) => {
    const from = timed ? (msOf(span.start) ?? startMs) : index;
    const to = span.outcome === 'open' ? endMs : timed ? (msOf(span.end) ?? endMs) : index + 1;
    const left = x(from);
    const group = s(
      'g',
      { class: `bar ${span.outcome}`, 'data-seq': span.seq, 'data-session': span.session },
      s('text', { class: 'bar-label', x: labelWidth - 6, y: y + 12 }, fitMono(spanLabel(span), labelWidth - 12)),
      s('rect', { x: left, y: y + 3, width: Math.max(2, x(to) - left), height: rowHeight - 6, rx: 2 }),
    );
    if (span.outcome !== 'open' && span.end && span.start) {
      group.append(
        s('text', { class: 'bar-time', x: Math.min(width - 60, x(to) + 4), y: y + 12 }, formatDuration((msOf(span.end) ?? 0) - (msOf(span.start) ?? 0))),
      );
    }
    for (const tick of span.progress) {
      const at = timed ? msOf(tick.t) : undefined;
      if (at !== undefined) group.append(s('line', { class: 'tick', 'data-seq': tick.seq, x1: x(at), y1: y + 1, x2: x(at), y2: y + rowHeight - 1 }));
    }
    return group;
  };
  const head = s('svg', { class: 'waterfall-head', width, height: top, viewBox: `0 0 ${width} ${top}` }, ticks);
  const body = blocks(
    spans,
    (count) => count * rowHeight,
    (slice, first) => {
      const height = slice.length * rowHeight;
      const svg = s('svg', { class: 'waterfall', width, height, viewBox: `0 0 ${width} ${height}` });
      slice.forEach((span, index) => svg.append(bar(span, first + index, index * rowHeight)));
      return svg;
    },
  );
  const chart = h('div', { class: 'waterfall-chart', role: 'img', 'aria-label': 'waterfall' }, head, ...body);
  chart.addEventListener('click', (event) => {
    const target = (event.target as Element).closest('.bar');
    if (target) open(Number(target.getAttribute('data-seq')), target.getAttribute('data-session') ?? '');
  });
  return chart;
}
