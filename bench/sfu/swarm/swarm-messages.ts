import type { HistogramBins } from './delay-histogram.js';
import type { JoinTarget } from './swarm-client.js';

/** What a bench asks the werift-swarm child process (../werift-swarm.ts) over IPC, and its replies. */
export type SwarmCommand =
  | {
      cmd: 'join';
      group: string;
      role: 'publisher' | 'subscriber';
      targets: JoinTarget[];
      concurrency?: number;
    }
  /** Publisher: 50 packets a second until told to stop (warm-up, join timing). */
  | { cmd: 'stream'; group: string; on: boolean }
  /** Publisher: 50 packets a second for `seconds`; replies with the index range it sent. */
  | { cmd: 'publish'; group: string; seconds: number; payloadBytes?: number }
  /** Subscribers: count and time only packets whose index is in [from, to). */
  | { cmd: 'window'; group: string; from: number; to: number }
  /**
   * Every publisher of the group: a silent open microphone, as Opus DTX sends it (a 3-byte frame
   * every 400 ms, each member at its own phase), until told to stop.
   */
  | { cmd: 'silence'; group: string; on: boolean }
  | { cmd: 'stats'; group: string }
  | { cmd: 'leave'; group: string };

export type SwarmReply =
  | {
      ok: 'joined';
      clients: number;
      failures: string[];
      feeds: (number | undefined)[];
      /** Joins whose connection failed and were made again. */
      retries: number;
    }
  | { ok: 'streaming'; nextIndex: number }
  | { ok: 'published'; from: number; to: number }
  | { ok: 'window' }
  | {
      ok: 'stats';
      /** Packets in the window, per subscriber. */
      received: number[];
      /** Monotonic µs of each subscriber's first bench packet, or null. */
      firstPacketUs: (number | null)[];
      delays: HistogramBins;
      /** Connection states of listeners that have not heard a packet yet. */
      silent: string[];
      publisher: string | undefined;
    }
  | { ok: 'silence'; members: number }
  | { ok: 'left' }
  | { error: string };
