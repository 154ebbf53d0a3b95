import { setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { createGcPacer } from '../gc-pacer.js';
import { controlSlots, type ChannelMessage, type FinishMessage, type ObserverReply } from './channel-messages.js';
import { writeOutMs } from './record-progress.js';

/** What observes the messages of one spy (stdio or HTTP) on this thread. */
export interface ObservingSide<M> {
  /**
   * `overdue` says when the spy's time to finish has run out: a message of many frames may stop
   * early, counting the rest. `pressed` says when the observer cannot afford to analyse every frame
   * and should capture what it can (see `pressed` below).
   */
  handle(message: M, overdue: () => boolean, pressed: () => boolean): void;
  /** Bytes of each stream in frames or gaps given to the recorder so far (the progress of the record). */
  recorded(): readonly number[];
  /** Counts a message's bytes as not recorded; false when the message carries none (it is handled as usual). */
  drop(message: M): boolean;
  /** Writes the gaps for what was dropped. */
  dropped(): void;
  end(): void;
}

/** Where the observed entries go: the files pace the observer, and are closed at the end. */
export interface ObservedOutput {
  /** The observing is over: what sends elsewhere finishes, and may still add to the record. */
  end(): Promise<void>;
  /** The observer is behind the traffic (true), or caught up (false). */
  behind(on: boolean): void;
  backlog(): number;
  /** `reached` is called as what was given so far goes to the record (see `Sink.checkpoint`). */
  checkpoint(reached: () => (() => void) | void): void;
  caughtUp(limit: number): Promise<void>;
  lastSeq(): number;
  close(): Promise<void>;
  closeNow(): void;
  /** Resolves when the spy's own stderr (warnings, the live view) has been written. */
  flushStderr(): Promise<void>;
}

/**
 * Finishing, how long the files are given at a time to write what is queued; they are given more
 * while they still take more, for as long as the forwarding side waits for this thread (`writeOutMs`).
 */
const closeStepMs = 500;

/** How far behind the traffic (bytes handed over, not observed) the observer is pressed for time. */
const pressedBacklog = 1024 * 1024;

/**
 * The observer thread's side of the channel, for either spy: works through the batches the
 * forwarding thread sends, acknowledges the bytes observed, paces itself on the files, and
 * meets the deadline the forwarding side sets when the spy exits.
 */
export function serveObserverChannel<M extends ChannelMessage>(
  port: MessagePort,
  controlBuffer: SharedArrayBuffer | undefined,
  observer: ObservingSide<M>,
  output: ObservedOutput,
  live = false,
) {
  const control = controlBuffer ? new BigInt64Array(controlBuffer) : undefined;
  /** Messages handled (a finish aside): the forwarding side counts them the same way. */
  let handled = 0;
  let showing = false;

  /**
   * With a live view, says once its lines are written how many messages it has shown: the
   * forwarding side holds the server's stderr until then, so it does not print above the frames
   * seen before it. One flush at a time; a later batch is reported when it ends.
   */
  function reportShown() {
    if (!live || showing) return;
    showing = true;
    const upTo = handled;
    void output.flushStderr().then(() => {
      showing = false;
      port.postMessage({ type: 'shown', messages: upTo } satisfies ObserverReply);
      if (handled > upTo) reportShown();
    });
  }

  /** Past the deadline the forwarding side set (the spy is exiting): what is left is not observed. */
  function overdue(): boolean {
    const deadline = control ? Atomics.load(control, controlSlots.deadline) : 0n;
    return deadline !== 0n && Date.now() >= Number(deadline);
  }

  /** Bytes of the messages handled so far. */
  let observedBytes = 0;
  /** When this thread first saw the deadline (the spy began finishing). */
  let finishingSince: number | undefined;

  /**
   * Whether the observer is pressed for time: more than `pressedBacklog` bytes handed over and not
   * observed yet (those in messages on their way included, which this thread cannot count itself),
   * or the spy finishing and half its time to finish gone. Analysis then gives way to capture, which
   * keeps every frame; a backlog of a few frames that waited for a busy CPU is no reason.
   */
  function pressed(): boolean {
    if (!control) return false;
    if (Number(Atomics.load(control, controlSlots.handedOver)) - observedBytes > pressedBacklog) return true;
    const deadline = Number(Atomics.load(control, controlSlots.deadline));
    if (deadline === 0) return false;
    const now = Date.now();
    finishingSince ??= now;
    return now >= finishingSince + (deadline - finishingSince) / 2;
  }

  /** Tells the forwarding side, once the entries so far are on their way to the record, what it holds. */
  function checkpoint() {
    if (!control) return;
    const seq = BigInt(output.lastSeq());
    const messages = BigInt(handled);
    const recorded = observer.recorded().map(BigInt);
    output.checkpoint(() => {
      // Said before the write is issued, and marked as being written until it is: a spy that stops
      // this thread waits for that moment rather than guess whether these lines reached the file.
      Atomics.store(control, controlSlots.writing, 1n);
      Atomics.store(control, controlSlots.seq, seq);
      Atomics.store(control, controlSlots.handled, messages);
      recorded.forEach((bytes, index) => Atomics.store(control, controlSlots.recorded + index, bytes));
      return () => Atomics.store(control, controlSlots.writing, 0n);
    });
  }

  async function finish() {
    clearInterval(deadlineWatch);
    observer.end();
    await output.end();
    checkpoint();
    // The files get what is queued, but not for ever: a reader that stopped reading a FIFO must
    // not keep the spy from exiting; one that reads on, slower than the traffic came, is waited
    // for while it takes more (as the forwarding side waits while the record advances).
    const closed = output.close().then(() => true);
    const until = Date.now() + writeOutMs;
    for (let left = output.backlog(); ; ) {
      let timer: NodeJS.Timeout | undefined;
      const done = await Promise.race([closed, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), closeStepMs)))]);
      clearTimeout(timer);
      const now = output.backlog();
      if (done || now >= left || Date.now() >= until) break;
      left = now;
    }
    output.closeNow();
    await output.flushStderr();
    port.postMessage({ type: 'closed' } satisfies ObserverReply);
  }

  // The observer works through the batches in order, but stops while the files are far behind:
  // small frames make several times their size in record and log lines, so the bytes waiting to be
  // observed (which the forwarding side bounds) must not all be turned into lines at once.
  // Bytes are acknowledged once observed; while too many are unacknowledged, the forwarding side
  // stops handing over bytes and counts them as lost. Acknowledgements are gathered (a MiB, or
  // 10 ms) so as not to wake the forwarding thread per batch.
  const ackBytes = 1024 * 1024;
  const maxBacklog = 4 * 1024 * 1024;
  const waiting: (M | FinishMessage)[][] = [];
  // Bytes received and not yet observed: past `behindBytes` the observer is behind the traffic
  // (the sinks may leave out what the record holds anyway), below `caughtUpBytes` it has caught up.
  const behindBytes = 1024 * 1024;
  const caughtUpBytes = 256 * 1024;
  let unobserved = 0;
  let behind = false;

  function noteProgress() {
    if (!behind && unobserved > behindBytes) {
      behind = true;
      output.behind(true);
    } else if (behind && unobserved < caughtUpBytes) {
      behind = false;
      output.behind(false);
    }
  }
  let unacked = 0;
  /** Bytes read back from the spill (or counted lost) and not yet acknowledged: their room there is free. */
  let unackedSpill = 0;
  let ackTimer: NodeJS.Timeout | undefined;
  let pacing = false;
  // A young collection every 4 MiB observed, and a full one once 4 MiB more than the least since
  // the last is held outside the heap: spent buffers are freed as a flood is captured, not 40 MiB
  // at a time (see createGcPacer). Looked at every 8 MiB, the peak through 1 MiB frames was 163-211
  // MiB rather than 138-144; a full one past 8 MiB rather than 4 held ~8 MiB more of small frames.
  const paceGc = createGcPacer(4 * 1024 * 1024, { majorPast: 4 * 1024 * 1024 });

  function ack() {
    clearTimeout(ackTimer);
    ackTimer = undefined;
    if (unacked > 0 || unackedSpill > 0) port.postMessage({ type: 'ack', bytes: unacked, spilled: unackedSpill } satisfies ObserverReply);
    unacked = 0;
    unackedSpill = 0;
  }

  let abandoned = false;
  let deadlineWatch: NodeJS.Timeout | undefined;

  function handleOne(message: M | FinishMessage) {
    if (message.type === 'finish') {
      ack();
      if (abandoned) observer.dropped();
      void finish();
      return;
    }
    handled++;
    // The gaps go before an event (the exit), so the record reads in order.
    if (abandoned && message.type === 'event') observer.dropped();
    const observed = message as M;
    if (!abandoned || !observer.drop(observed)) observer.handle(observed, overdue, pressed);
    checkpoint();
    if (observed.data !== undefined) {
      observedBytes += observed.data.byteLength;
      unacked += observed.data.byteLength;
      unobserved -= observed.data.byteLength;
      if (!abandoned) paceGc(observed.data.byteLength);
    } else if (observed.spilled !== undefined) {
      observedBytes += observed.spilled.length;
      unackedSpill += observed.spilled.length;
      unobserved -= observed.spilled.length;
      // Read back into new buffers: collected at the same pace as those that came in messages.
      if (!abandoned) paceGc(observed.spilled.length);
    }
  }

  /**
   * Handles a batch from `from` on; returns where it stopped: the deadline passed (`overdue`), or,
   * with `pace`, the files fell far behind (`paced`: a batch naming spilled bytes may hold many
   * MiB, and they would all be made into lines at once); undefined at its end.
   */
  function handle(batch: (M | FinishMessage)[], from = 0, pace = false): { at: number; why: 'overdue' | 'paced' } | undefined {
    let stopped: { at: number; why: 'overdue' | 'paced' } | undefined;
    for (let index = from; index < batch.length; index++) {
      // Checked at every message (one may hold thousands of small lines: it checks within too).
      if (!abandoned && overdue()) return { at: index, why: 'overdue' };
      if (pace && index > from && !abandoned && output.backlog() > maxBacklog) {
        stopped = { at: index, why: 'paced' };
        break;
      }
      handleOne(batch[index]!);
    }
    reportShown();
    noteProgress();
    if (unacked + unackedSpill >= ackBytes) ack();
    else if (unacked > 0 || unackedSpill > 0) ackTimer ??= setTimeout(ack, 10);
    return stopped;
  }

  /** Where in the first waiting batch to go on from: it was left there for the files to catch up. */
  let resumeAt = 0;

  /** The first waiting batch, and where in it to go on from. */
  function nextBatch(): [(M | FinishMessage)[], number] {
    const from = resumeAt;
    resumeAt = 0;
    return [waiting.shift()!, from];
  }

  /** The deadline passed: what waits (from `from` of `batch` on) is counted, not observed; events (the exit) are still written. */
  function abandon(batch: (M | FinishMessage)[], from: number) {
    abandoned = true;
    pacing = false;
    handle(batch, from);
    while (waiting.length > 0) handle(...nextBatch());
  }

  function drain() {
    while (!pacing && waiting.length > 0) {
      const [batch, from] = nextBatch();
      const stopped = handle(batch, from, true);
      if (stopped?.why === 'overdue') return abandon(batch, stopped.at);
      if (stopped?.why === 'paced') {
        waiting.unshift(batch);
        resumeAt = stopped.at;
      }
      if (!abandoned && output.backlog() > maxBacklog) {
        pacing = true;
        void output.caughtUp(maxBacklog / 4).then(() => {
          if (!pacing) return;
          pacing = false;
          drain();
        });
      }
    }
  }

  port.on('message', (batch: (M | FinishMessage)[]) => {
    waiting.push(batch);
    for (const message of batch) unobserved += (message as ChannelMessage).data?.byteLength ?? (message as ChannelMessage).spilled?.length ?? 0;
    noteProgress();
    // Once the spy has set a deadline, it is watched even while the observer waits for the files.
    if (!deadlineWatch && control && Atomics.load(control, controlSlots.deadline) !== 0n) {
      // The traffic is over: what is left to do is the record, and the client waits for it. Back
      // to normal priority where allowed (lowering a nice value takes a privilege).
      try {
        setPriority(0);
      } catch {
        // Finish at the lower priority.
      }
      deadlineWatch = setInterval(() => {
        if (!abandoned && overdue()) abandon([], 0);
      }, 20);
    }
    drain();
  });
  // Loaded and listening: from now on the time the spy gives it to finish is its own.
  port.postMessage({ type: 'ready' } satisfies ObserverReply);
}
