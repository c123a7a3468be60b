import type { RtpPacket } from 'werift';
import { WeriftVoiceClient } from '../../../server/src/voice/sfu/testing/werift-voice-client.js';
import { JanusBenchClient } from './janus-bench-client.js';
import { LiveKitBenchClient, waitFor } from './livekit-bench-client.js';

export type ServerKind = 'built-in' | 'livekit' | 'janus';

/** Where and as whom one swarm client joins; plain data, so it crosses IPC. */
export type JoinTarget =
  | { server: 'built-in'; url: string; token: string }
  | { server: 'livekit'; url: string; token: string }
  | { server: 'janus'; url: string; room: number; feed?: number };

/** One headless participant of any of the three servers. */
export interface SwarmClient {
  /** Janus names a publisher's stream by this id; subscribers ask for it. */
  readonly feed?: number | undefined;
  sendRtp(packet: RtpPacket): void;
  close(): Promise<void>;
  /** Connection states, for listeners that never heard anything. */
  describe(): string;
  /** The media connection's state (the subscriber connection for LiveKit). */
  readonly connectionState: string;
}

export async function joinSwarmClient(
  target: JoinTarget,
  role: 'publisher' | 'subscriber',
  onRtp?: (rtp: RtpPacket) => void,
): Promise<SwarmClient> {
  switch (target.server) {
    case 'built-in': {
      const client = await WeriftVoiceClient.join(target.url, target.token);
      client.recoverIce();
      if (!client.joined) throw new Error(`built-in SFU refused the join (${client.closeCode})`);
      if (role === 'publisher')
        await client.waitFor(() => client.isPublishing, 20_000, 'publish slot');
      if (onRtp) client.onRtp = (_identity, rtp) => onRtp(rtp);
      return {
        sendRtp: (packet) => client.sendRtp(packet),
        close: () => client.close(),
        get connectionState() {
          return client.pc.connectionState;
        },
        describe: () =>
          `${client.pc.connectionState}/${client.pc.iceConnectionState}, ` +
          `${client.pc.getTransceivers().length} m-lines, ${client.messages.filter((m) => m.type === 'offer').length} offers, ws ${client.ws.readyState}, ${client.iceRestarts} ICE restarts, ` +
          `pairs ${describePairs(client.pc)}`,
      };
    }
    case 'livekit':
      return LiveKitBenchClient.join(target.url, target.token, role, onRtp);
    case 'janus':
      return JanusBenchClient.join(target.url, role, target.room, target.feed, onRtp);
  }
}

export { waitFor };

/** ICE pair states and STUN counters, to tell a silent server from a silent client. */
function describePairs(pc: { iceTransports: unknown[] }): string {
  interface PairShape {
    state: number;
    requestsSent: number;
    responsesReceived: number;
    requestsReceived: number;
    responsesSent: number;
    json: unknown;
  }
  return pc.iceTransports
    .flatMap((t) => (t as { connection: { checkList: PairShape[] } }).connection.checkList)
    .map(
      (p) =>
        `[state ${p.state} req ${p.requestsSent}/${p.responsesReceived} in ${p.requestsReceived}/${p.responsesSent} ${JSON.stringify(p.json)}]`,
    )
    .join(' ');
}
