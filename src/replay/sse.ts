import { createParser } from 'eventsource-parser';

/** Reads a text/event-stream body, calling `onData` with each event's data (and type), until the stream ends. */
export async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string, event?: string) => void): Promise<void> {
  const parser = createParser({
    onEvent: (event) => {
      if (event.data !== '') onData(event.data, event.event);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    // An aborted or broken stream simply ends the events.
  } finally {
    reader.releaseLock();
  }
}
