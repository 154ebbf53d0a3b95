/** What stops a replay or a mock before it can say anything about the server: bad input or a peer that never ran. */
export class ReplayError extends Error {
  constructor(
    message: string,
    /** 2: bad use (missing or corrupt recording); 126/127: a server that cannot be started; 1: a server that died at once. */
    readonly exitCode: number = 2,
  ) {
    super(message);
    this.name = 'ReplayError';
  }
}
