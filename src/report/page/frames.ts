import { parseFilter } from '../../review/filter-expression.js';
import type { RecordEntry } from '../../record/schema.js';
import type { ReportEvent, ReportFrame, ReportRecording } from '../report-types.js';
import { blocks, blockSize, clip, h, section } from './dom.js';
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

/** What a fault rule did to a frame, as its arrow and its row say it: made by the spy, or acted on (held, dropped, answered in the peer's place). */
export function faultMark(frame: ReportFrame): { class: string; label: string; title: string } | undefined {
  // Held by --intercept: let go as it was, or edited (or answered) at the console.
  if (frame.intercept !== undefined) {
    if (frame.origin !== 'spy') return { class: 'faulted', label: 'intercepted', title: `held by --intercept ${frame.intercept}` };
    return {
      class: 'injected',
      label: frame.edited ? 'edited at the intercept' : 'answered at the intercept',
      title: `made at the console, --intercept ${frame.intercept}`,
    };
  }
  if (frame.fault === undefined) return undefined;
  if (frame.origin === 'spy') return { class: 'injected', label: 'injected by mcp-spy', title: `made by mcp-spy, fault rule: ${frame.fault}` };
  return { class: 'faulted', label: 'faulted', title: `fault rule: ${frame.fault}` };
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
    parts.push(
      h(
        'p',
        { class: 'left-out' },
        item.textLeftOut === 'size-limit'
          ? 'the text of this frame was left out of the report (size limit)'
          : 'this frame has no text (bytes that are not UTF-8)',
      ),
    );
  } else {
    parts.push(
      h('h4', {}, 'JSON'),
      payloadBlock(prettyText(item.raw), 'pretty'),
      h('h4', {}, `exact bytes (${formatBytes(item.bytes ?? item.raw.length)})`),
      payloadBlock(item.raw, 'exact'),
    );
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
  const mark = frame && faultMark(frame);
  if (mark) head.append(h('span', { class: `badge ${mark.class}`, title: mark.title }, mark.label));
  return h(
    'div',
    { class: `row ${item.kind}${mark ? ` ${mark.class}` : ''}`, 'data-seq': item.seq, 'data-line': item.line, 'data-session': item.session },
    head,
  );
}

const rowHeight = 22;

/**
 * The frame list: the filter language of `view --filter`, the kinds as toggles, each row expandable.
 * Rows are made a block at a time as they come near the view (the first block at once), so a long
 * recording costs only what is looked at; the filter works on the items, made or not.
 */
export function frameList(recording: ReportRecording) {
  const items: ListItem[] = [...recording.frames, ...recording.events].sort((a, b) => a.line - b.line);
  const indexOf = new Map(items.map((item, index) => [item.line, index]));
  const rows = new Map<number, HTMLElement>();
  const shownItems = items.map(() => true);
  const byRequest = (seq: number, session: string) => items.find((item) => item.seq === seq && item.session === session);
  const toggle = (item: ListItem, row: HTMLElement, open?: boolean) => {
    const detail = row.querySelector(':scope > .detail');
    const opening = open ?? !detail;
    if (detail && !opening) detail.remove();
    if (!detail && opening)
      row.append(
        detailOf(item, (seq, session) => {
          const request = byRequest(seq, session);
          if (request) api.open(request.line);
        }),
      );
    row.classList.toggle('open', opening);
  };
  const makeRow = (item: ListItem, index: number) => {
    const row = rowOf(item);
    row.hidden = !shownItems[index];
    rows.set(item.line, row);
    const head = row.firstElementChild as HTMLElement;
    head.addEventListener('click', () => toggle(item, row));
    head.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        toggle(item, row);
      }
    });
    return row;
  };
  const made = new Set<number>();
  const listBlocks = blocks(
    items,
    (count) => count * rowHeight,
    () => h('div', { class: 'block-rows' }),
  );
  const build = (block: number) => {
    if (made.has(block)) return;
    made.add(block);
    const first = block * blockSize;
    const fragment = document.createDocumentFragment();
    items.slice(first, first + blockSize).forEach((item, offset) => fragment.append(makeRow(item, first + offset)));
    listBlocks[block]!.firstElementChild!.append(fragment);
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        build(listBlocks.indexOf(entry.target as HTMLElement));
        observer.unobserve(entry.target);
      }
    },
    { rootMargin: '1500px 0px' },
  );
  listBlocks.forEach((block, index) => (index === 0 ? build(0) : observer.observe(block)));
  const list = h('div', { class: 'rows' }, ...listBlocks);

  const kinds = [...new Set(items.map((item) => item.kind))];
  const shownKinds = new Set(kinds);
  const input = h('input', {
    type: 'search',
    class: 'filter',
    placeholder: 'filter, as view --filter: tool = "search" and latency > 500',
    spellcheck: 'false',
    'aria-label': 'filter expression',
  });
  const problem = h('span', { class: 'filter-error', role: 'status' });
  const count = h('span', { class: 'count' });
  let test: (entry: RecordEntry) => boolean = () => true;
  const apply = () => {
    items.forEach((item, index) => {
      shownItems[index] = shownKinds.has(item.kind) && test(item as unknown as RecordEntry);
      const row = rows.get(item.line);
      if (row) row.hidden = !shownItems[index];
    });
    // A block sized for the rows it shows, so the scroll bar stays right while it is skipped.
    listBlocks.forEach((block, index) => {
      const visible = shownItems.slice(index * blockSize, (index + 1) * blockSize).filter(Boolean).length;
      block.hidden = visible === 0;
      block.style.containIntrinsicSize = `auto ${visible * rowHeight}px`;
    });
    count.textContent = `${shownItems.filter(Boolean).length} of ${items.length} shown`;
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
  const toggles = h(
    'div',
    { class: 'kinds' },
    ...kinds.map((kind) => {
      const box = h('input', { type: 'checkbox', checked: true, 'data-kind': kind });
      box.addEventListener('change', () => {
        if (box.checked) shownKinds.add(kind);
        else shownKinds.delete(kind);
        apply();
      });
      return h('label', { class: `toggle ${kind}` }, box, ` ${kind}`);
    }),
  );
  apply();
  const api = {
    element: section('frames', 'Frames', h('div', { class: 'filter-bar' }, input, count, problem), toggles, list),
    /** Shows a frame's row opened and scrolled into view, clearing what hides it. */
    open(line: number) {
      const index = indexOf.get(line);
      if (index === undefined) return;
      build(Math.floor(index / blockSize));
      const row = rows.get(line)!;
      const item = items[index]!;
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
