import type { ReportData, ReportFinding, ReportRecording } from '../report-types.js';
import { comparisonSection } from './compare.js';
import { h, section } from './dom.js';
import { frameList, type ListItem } from './frames.js';
import { sequenceDiagram } from './sequence.js';
import { summaryStrip } from './summary.js';
import { findingsSection, latencySection, toolsSection } from './tables.js';
import { waterfall } from './waterfall.js';

const allSessions = '*';

function sessionPicker(recording: ReportRecording, onPick: (session: string) => void): HTMLElement | undefined {
  if (recording.sessions.length < 2) return undefined;
  const options = recording.sessions.map((session) =>
    h(
      'option',
      { value: session.id },
      `${session.id} (${[session.client?.name, session.server?.name].filter(Boolean).join(' → ') || session.transport || 'session'}, ${session.frames} frames)`,
    ),
  );
  const select = h(
    'select',
    { class: 'session-picker', 'aria-label': 'session' },
    h('option', { value: allSessions }, `all ${recording.sessions.length} sessions`),
    ...options,
  );
  select.addEventListener('change', () => onPick(select.value));
  return h('label', { class: 'sessions' }, 'session ', select);
}

/** Renders one recording's report into `root`. */
function renderRecording(root: HTMLElement, recording: ReportRecording): void {
  const list = frameList(recording);
  const items: ListItem[] = [...recording.frames, ...recording.events].sort((a, b) => a.line - b.line);
  const lineOf = (seq: number, session: string) => items.find((item) => item.seq === seq && item.session === session)?.line;
  const openSeq = (seq: number, session: string) => {
    const line = lineOf(seq, session);
    if (line !== undefined) list.open(line);
  };
  const diagram = h('div', { class: 'diagram' });
  const bars = h('div', { class: 'diagram' });
  let shownSession = allSessions;
  let barsWidth = 0;
  // The waterfall is as wide as its panel: drawn once the panel is laid out, again when it resizes.
  const drawBars = () => {
    barsWidth = bars.clientWidth;
    const spans = shownSession === allSessions ? recording.spans : recording.spans.filter((span) => span.session === shownSession);
    bars.replaceChildren(waterfall(recording, spans, openSeq, barsWidth));
  };
  const draw = (session: string) => {
    shownSession = session;
    const shown = session === allSessions ? items : items.filter((item) => item.session === session);
    diagram.replaceChildren(sequenceDiagram(recording, shown, (line) => list.open(line)));
    if (bars.isConnected) drawBars();
  };
  draw(allSessions);
  const openFinding = (finding: ReportFinding) => {
    if (finding.seq !== undefined) openSeq(finding.seq, finding.session ?? '');
  };
  root.replaceChildren(
    summaryStrip(recording),
    section('sequence', 'Sequence', sessionPicker(recording, draw), diagram),
    section('waterfall', 'Waterfall', h('p', { class: 'legend' }, 'one bar per request, from send to answer; ticks are progress notifications'), bars),
    latencySection(recording),
    findingsSection(recording, openFinding),
    list.element,
    toolsSection(recording),
  );
  drawBars();
  new ResizeObserver(() => {
    if (bars.clientWidth !== barsWidth) drawBars();
  }).observe(bars);
}

function start(): void {
  const data = JSON.parse(document.getElementById('report-data')!.textContent!) as ReportData;
  const main = document.getElementById('report')!;
  const body = h('div', { id: 'recording' });
  const [first, second] = data.recordings;
  const title = data.recordings.map((recording) => recording.file).join(' and ');
  const header = h('header', {}, h('h1', {}, `mcp-spy report: ${title}`));
  if (second && data.comparison) {
    const tabs = h(
      'nav',
      { class: 'tabs' },
      ...data.recordings.map((recording, index) => {
        const tab = h('button', { type: 'button', class: index === 1 ? 'tab active' : 'tab', 'data-recording': index }, recording.file);
        tab.addEventListener('click', () => {
          for (const other of tabs.querySelectorAll('.tab')) other.classList.toggle('active', other === tab);
          renderRecording(body, recording);
        });
        return tab;
      }),
    );
    main.replaceChildren(header, comparisonSection(data.comparison, [first!.file, second.file]), tabs, body);
    renderRecording(body, second);
  } else {
    main.replaceChildren(header, body);
    renderRecording(body, first!);
  }
  // Once the report is painted (its first contentful paint: everything above is drawn by then), say
  // when, by the page's clock. An animation frame's callback can run before that frame's paint.
  new PerformanceObserver((paints, observer) => {
    if (paints.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = 'true';
  }).observe({ type: 'paint', buffered: true });
}

start();
