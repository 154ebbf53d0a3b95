/** The signals that stop a spy; a stdio spy passes them on to its server. */
export const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Calls `handler` on each stop signal until the returned function is called. */
export function onStopSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of stopSignals) process.on(signal, handler);
  return () => {
    for (const signal of stopSignals) process.off(signal, handler);
  };
}

/** Resolves when one of the stop signals arrives, with a way to stop listening for them. */
export function stopRequested() {
  let onSignal = () => {};
  const signalled = new Promise<void>((resolve) => (onSignal = resolve));
  return { signalled, dispose: onStopSignals(() => onSignal()) };
}
