import { createParser, type EventSourceParser } from 'eventsource-parser';

/** One Server-Sent Event as it crossed the wire. */
export interface SseEvent {
  /** The `data` lines joined with LF; empty for a priming event. */
  data: string;
  event?: string;
  id?: string;
  /** A `retry` field seen since the previous event. */
  retry?: number;
  /** The event's data was larger than the parse limit: `data` holds its start (or nothing). */
  truncated?: true;
}

export interface SseFramer {
  /** Feeds a chunk of the stream; returns the events it completed. */
  push(chunk: Buffer): SseEvent[];
  /** The stream ended; an event left without its blank line is dropped, as a browser would. */
  end(): SseEvent[];
}

/**
 * Splits an SSE byte stream into events. Never throws on peer input: a stream that outgrows the
 * parse limit is reset and goes on with the next event, marking the lost one truncated.
 */
export function createSseFramer(maxEvent: number): SseFramer {
  const decoder = new TextDecoder('utf-8');
  let done: SseEvent[] = [];
  let retry: number | undefined;
  let overflowed = false;
  let parser: EventSourceParser;

  const build = () =>
    createParser({
      maxBufferSize: maxEvent,
      onEvent: ({ data, event, id }) => {
        const out: SseEvent = data.length > maxEvent ? { data: data.slice(0, maxEvent), truncated: true } : { data };
        if (event !== undefined) out.event = event;
        if (id !== undefined) out.id = id;
        if (retry !== undefined) out.retry = retry;
        retry = undefined;
        done.push(out);
      },
      onRetry: (value) => {
        retry = value;
      },
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') overflowed = true;
      },
    });
  parser = build();

  const take = () => {
    const out = done;
    done = [];
    return out;
  };

  return {
    push(chunk) {
      const text = decoder.decode(chunk, { stream: true });
      if (overflowed) {
        // Skip to the end of the oversized event, then start afresh.
        const blank = text.search(/\r?\n\r?\n|\r\r/);
        if (blank === -1) return [];
        overflowed = false;
        parser = build();
        done.push({ data: '', truncated: true });
        parser.feed(text.slice(blank).replace(/^(\r?\n|\r)/, ''));
        return take();
      }
      parser.feed(text);
      if (overflowed) parser = build();
      return take();
    },
    end() {
      const rest = decoder.decode();
      if (rest && !overflowed) parser.feed(rest);
      return take();
    },
  };
}

/** The SSE facts a frame carries in the record: its event id, its type when not the default, a retry. */
export function sseFieldsOf(event: SseEvent): { sse: Record<string, string | number> } | undefined {
  const sse: Record<string, string | number> = {};
  if (event.id !== undefined) sse.id = event.id;
  if (event.event !== undefined && event.event !== 'message') sse.event = event.event;
  if (event.retry !== undefined) sse.retry = event.retry;
  return Object.keys(sse).length > 0 ? { sse } : undefined;
}
