import type { JsonObject } from '../protocol/jsonrpc.js';

/** What a peer tells the replay: messages from the server, a send that failed, the end. */
export interface PeerHandlers {
  /** One message from the server, parsed, with the text it came as. */
  message(message: unknown, raw: string): void;
  /** A client message could not be delivered (HTTP status, connection refused). */
  failed(message: JsonObject, reason: string): void;
  /** The server is gone (exited, stream ended): nothing more will come. */
  closed(reason: string): void;
}

/** The server under replay, behind one transport. */
export interface Peer {
  /** Sends one client message; `raw` is the exact text to send. */
  send(raw: string, message: JsonObject): void;
  /** Ends the session and stops the server (stdio), waiting for it to go. */
  close(): Promise<void>;
  /** The last lines the server wrote to stderr, for a message when it dies. */
  stderrTail(): string;
  /** The session id the server gave (Streamable HTTP), if any. */
  sessionId?(): string | undefined;
}

export type PeerFactory = (handlers: PeerHandlers) => Promise<Peer>;
