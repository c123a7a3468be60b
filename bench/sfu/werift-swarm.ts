/**
 * Child process of the CPU bench: hosts the publisher and the listeners as werift clients, so
 * the SFU's process measures only its own work. Driven over IPC by sfu-cpu.bench.ts.
 */
import { RtpHeader, RtpPacket } from 'werift';
import { WeriftVoiceClient } from '../../server/src/voice/sfu/testing/werift-voice-client.js';

export type SwarmCommand =
  | { cmd: 'join'; url: string; tokens: string[]; publisher: boolean }
  | { cmd: 'publish'; seconds: number; payloadBytes: number }
  | { cmd: 'counts' }
  | { cmd: 'leave' };

export type SwarmReply =
  | { ok: 'joined'; clients: number }
  | { ok: 'published'; sent: number }
  | { ok: 'counts'; received: number[] }
  | { ok: 'left' }
  | { error: string };

const listeners: WeriftVoiceClient[] = [];
let publisher: WeriftVoiceClient | undefined;

function reply(message: SwarmReply): void {
  process.send?.(message);
}

async function join(url: string, tokens: string[], asPublisher: boolean): Promise<void> {
  // A few at a time: each join costs a DTLS handshake on both sides.
  for (let i = 0; i < tokens.length; i += 5) {
    const batch = await Promise.all(
      tokens.slice(i, i + 5).map((token) => WeriftVoiceClient.join(url, token)),
    );
    if (asPublisher) publisher = batch[0];
    else listeners.push(...batch);
  }
  if (publisher)
    await publisher.waitFor(() => publisher?.isPublishing === true, 15_000, 'publish slot');
}

/** 50 packets a second for `seconds`, paced against the clock so timer drift does not thin it. */
async function publish(seconds: number, payloadBytes: number): Promise<number> {
  const client = publisher;
  if (!client) throw new Error('no publisher');
  const payload = Buffer.alloc(payloadBytes, 0x5a);
  const start = performance.now();
  let sent = 0;
  let sequenceNumber = 1;
  let timestamp = 0;
  while (sent < seconds * 50) {
    const due = start + sent * 20;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    client.sendRtp(
      new RtpPacket(
        new RtpHeader({ payloadType: 111, sequenceNumber, timestamp, ssrc: 0xbeef }),
        payload,
      ),
    );
    sequenceNumber = (sequenceNumber + 1) & 0xffff;
    timestamp = (timestamp + 960) >>> 0;
    sent++;
  }
  return sent;
}

process.on('message', (message: SwarmCommand) => {
  const run = async (): Promise<SwarmReply> => {
    switch (message.cmd) {
      case 'join':
        await join(message.url, message.tokens, message.publisher);
        return { ok: 'joined', clients: listeners.length + (publisher ? 1 : 0) };
      case 'publish':
        return { ok: 'published', sent: await publish(message.seconds, message.payloadBytes) };
      case 'counts':
        return {
          ok: 'counts',
          received: listeners.map((l) => [...l.received.values()].reduce((s, n) => s + n, 0)),
        };
      case 'leave':
        await Promise.all(
          [...listeners.splice(0), ...(publisher ? [publisher] : [])].map((c) => c.close()),
        );
        publisher = undefined;
        return { ok: 'left' };
    }
  };
  run().then(reply, (error: unknown) => reply({ error: String(error) }));
});
