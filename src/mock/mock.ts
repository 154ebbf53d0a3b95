import { ReplayError } from '../recording/errors.js';
import { loadRecording, selectSessions, type LoadOptions } from '../recording/load.js';
import { createMockEngine, type MockEngine, type MockOptions } from './mock-engine.js';
import { ignoresFor } from '../recording/ignore.js';

export interface MockSetup extends LoadOptions {
  recording: string;
  ignore?: readonly string[];
  ignoreFile?: boolean;
  session?: string;
  reuse?: boolean;
  onMiss?: MockOptions['onMiss'];
  speed?: number;
  timeoutMs?: number;
}

/** Loads a recording for the mock and gives a factory of answer engines, one per client connection. */
export async function prepareMock(setup: MockSetup): Promise<() => MockEngine> {
  const speed = setup.speed ?? 0;
  if (speed !== 0 && speed !== 1) throw new ReplayError('--speed must be 0 (no delays) or 1 (recorded timing)');
  const recording = await loadRecording(setup.recording, setup);
  const sessions = selectSessions(recording, setup.session);
  const options: MockOptions = {
    ignores: ignoresFor(setup.recording, setup.ignore, setup.ignoreFile ?? true),
    reuse: setup.reuse ?? false,
    onMiss: setup.onMiss ?? 'error',
    speed,
    timeoutMs: setup.timeoutMs ?? 10_000,
  };
  return () => createMockEngine(sessions, options);
}
