/** The six kinds a frame can have; see docs/architecture.md, "Frames and their kinds". */
export const frameKinds = ['request', 'notification', 'response', 'tool-error', 'protocol-error', 'invalid'] as const;

export type FrameKind = (typeof frameKinds)[number];

/** Which way a frame went: client to server, or server to client. */
export type Direction = 'c2s' | 's2c';

export function oppositeOf(dir: Direction): Direction {
  return dir === 'c2s' ? 's2c' : 'c2s';
}

const frameKindSet: ReadonlySet<string> = new Set(frameKinds);

export function isFrameKind(kind: unknown): kind is FrameKind {
  return typeof kind === 'string' && frameKindSet.has(kind);
}
