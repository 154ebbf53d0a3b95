import { parseFilter } from '../../review/filter-expression.js';
import type { RecordEntry } from '../../record/schema.js';
import type { ReportEvent, ReportFrame, ReportRecording } from '../report-types.js';
import { clip, h, section } from './dom.js';
import { payloadBlock, prettyText } from './payload.js';
import { clockOf, formatBytes } from './time.js';

export type ListItem = ReportFrame | ReportEvent;

const isFrame = (item: ListItem): item is ReportFrame => 'dir' in item;
const arrows = { c2s: '→', s2c: '←' } as const;

/** The one-line label of a frame: method, tool, id, latency, error. */
export function frameLabel(frame: ReportFrame): string {
  const parts = [frame.method ?? (frame.kind === 'invalid' ? `invalid${frame.notes ? ` (${frame.notes.join(', ')})` : ''}` : frame.kind)];
  const subject = frame.tool ?? frame.prompt ?? frame.uri;
  if (subject !== undefined) parts.push(subject);
  if (frame.id !== undefined) parts.push(`#${String(frame.id)}`);
  if (frame.latencyMs !== undefined) parts.push(`${frame.latencyMs} ms`);
  if (frame.kind === 'protocol-error' && frame.error) parts.push(`error ${String(frame.error.code)}`);
  if (frame.kind === 'tool-error') parts.push('isError');
  return parts.join(' ');
}

function detailOf(item: ListItem, openRelated: (seq: number, session: string) => void): HTMLElement {
  if (!isFrame(item)) return h('div', { class: 'detail' }, payloadBlock(item.text, 'exact'));
  const parts: Node[] = [];
  if (item.related) {
    const link = h('a', { href: '#', class: 'related' }, `its request: seq ${item.related.seq}`);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      openRelated(item.related!.seq, item.session);
    });
    parts.push(h('p', {}, link));
  }
  if (item.raw === undefined) {
    parts.push(h('p', { class: 'left-out' }, item.textLeftOut === 'size-limit' ? 'the text of this frame was left out of the report (size limit)' : 'this frame has no text (bytes that are not UTF-8)'));
  } else {
    parts.push(h('h4', {}, 'JSON'), payloadBlock(prettyText(item.raw), 'pretty'), h('h4', {}, `exact bytes (${formatBytes(item.bytes ?? item.raw.length)})`), payloadBlock(item.raw, 'exact'));
  }
  if (item.notes) parts.push(h('p', { class: 'notes' }, `notes: ${item.notes.join(', ')}`));
  return h('div', { class: 'detail' }, ...parts);
}

function rowOf(item: ListItem): HTMLElement {
  const frame = isFrame(item) ? item : undefined;
  const head = h(
    'div',
    { class: 'row-head', role: 'button', tabindex: 0 },
    h('span', { class: 'seq' }, item.seq),
    h('span', { class: 'time' }, clockOf(item.t)),
    h('span', { class: 'dir' }, frame ? arrows[frame.dir] : '·'),
    h('span', { class: `badge ${item.kind}` }, item.kind),
    h('span', { class: 'label' }, isFrame(item) ? frameLabel(item) : clip(item.text, 200)),
  );
  return h('div', { class: `row ${item.kind}`, 'data-seq': item.seq, 'data-line': item.line, 'data-session': item.session }, head);
}

/** The frame list: the filter language of `view --filter`, the kinds as toggles, each row expandable. */
export function frameList(recording: ReportRecording) {
  const items: ListItem[] = [...recording.frames, ...recording.events].sort((a, b) => a.line - b.line);
  const rows = new Map<number, HTMLElement>();
  const list = h('div', { class: 'rows' });
  const byRequest = (seq: number, session: string) => items.find((item) => item.seq === seq && item.session === session);
  const toggle = (item: ListItem, row: HTMLElement, open?: boolean) => {
    const detail = row.querySelector(':scope > .detail');
    const opening = open ?? !detail;
    if (detail && !opening) detail.remove();
    if (!detail && opening) row.append(detailOf(item, (seq, session) => {
      const request = byRequest(seq, session);
      if (request) api.open(request.line);
    }));
    row.classList.toggle('open', opening);
  };
  const fragment = document.createDocumentFragment();
  for (const item of items) {
    const row = rowOf(item);
    rows.set(item.line, row);
    const head = row.firstElementChild as HTMLElement;
    head.addEventListener('click', () => toggle(item, row));
    head.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        toggle(item, row);
      }
    });
    fragment.append(row);
  }
  list.append(fragment);

  const kinds = [...new Set(items.map((item) => item.kind))];
  const shownKinds = new Set(kinds);
  const input = h('input', { type: 'search', class: 'filter', placeholder: 'filter, as view --filter: tool = "search" and latency > 500', spellcheck: 'false', 'aria-label': 'filter expression' });
  const problem = h('span', { class: 'filter-error', role: 'status' });
  const count = h('span', { class: 'count' });
  let test: (entry: RecordEntry) => boolean = () => true;
  const apply = () => {
    let shown = 0;
    for (const item of items) {
      const visible = shownKinds.has(item.kind) && test(item as unknown as RecordEntry);
      rows.get(item.line)!.hidden = !visible;
      if (visible) shown++;
    }
    count.textContent = `${shown} of ${items.length} shown`;
  };
  input.addEventListener('input', () => {
    const source = input.value.trim();
    const parsed = source === '' ? undefined : parseFilter(source);
    if (parsed && !parsed.ok) {
      problem.textContent = parsed.message;
      input.classList.add('bad');
      return;
    }
    problem.textContent = '';
    input.classList.remove('bad');
    test = parsed ? parsed.test : () => true;
    apply();
  });
  const toggles = h('div', { class: 'kinds' }, ...kinds.map((kind) => {
    const box = h('input', { type: 'checkbox', checked: true, 'data-kind': kind });
    box.addEventListener('change', () => {
      if (box.checked) shownKinds.add(kind);
      else shownKinds.delete(kind);
      apply();
    });
    return h('label', { class: `toggle ${kind}` }, box, ` ${kind}`);
  }));
  apply();
  const api = {
    element: section('frames', 'Frames', h('div', { class: 'filter-bar' }, input, count, problem), toggles, list),
    /** Shows a frame's row opened and scrolled into view, clearing what hides it. */
    open(line: number) {
      const row = rows.get(line);
      const item = items.find((candidate) => candidate.line === line);
      if (!row || !item) return;
      if (row.hidden) {
        input.value = '';
        test = () => true;
        problem.textContent = '';
        for (const box of toggles.querySelectorAll('input')) box.checked = true;
        kinds.forEach((kind) => shownKinds.add(kind));
        apply();
      }
      for (const selected of list.querySelectorAll('.row.selected')) selected.classList.remove('selected');
      row.classList.add('selected');
      toggle(item, row, true);
      row.scrollIntoView({ block: 'center' });
    },
  };
  return api;
}
