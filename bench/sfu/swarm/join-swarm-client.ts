import type { RtpPacket } from 'werift';
import { WeriftVoiceClient } from '../../../server/src/voice/sfu/testing/werift-voice-client.js';
import { JanusBenchClient } from './janus-bench-client.js';
import { LiveKitBenchClient } from './livekit-bench-client.js';
import type { JoinTarget, SwarmClient } from './swarm-client.js';

/** Joins one participant to whichever server the target names: the one place that knows them all. */
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
