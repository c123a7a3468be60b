import { Message, parseMessage } from 'werift';
import { describe, expect, it } from 'vitest';
import { BindingResponder, type BindingAgent } from './binding-responder.js';

const BINDING = 1;
const REQUEST = 0;
const RESPONSE = 256;

const agent: BindingAgent = {
  localUsername: 'Srv1',
  localPassword: 'server-password-22chars',
  remoteUsername: 'brwsr',
  iceControlling: true,
};

/** A consent check as a browser sends it to the server (werift builds it the same way). */
function consentCheck(
  options: { username?: string; password?: string; extra?: (m: Message) => void } = {},
): Buffer {
  const message = new Message(BINDING, REQUEST)
    .setAttribute('USERNAME', options.username ?? 'Srv1:brwsr')
    .setAttribute('PRIORITY', 1853817087)
    .setAttribute('ICE-CONTROLLED', 0x1234_5678_9abc_def0n);
  options.extra?.(message);
  return message
    .addMessageIntegrity(Buffer.from(options.password ?? agent.localPassword, 'utf8'))
    .addFingerprint().bytes;
}

describe('BindingResponder', () => {
  it('answers a consent check with exactly the bytes werift would send', () => {
    const request = consentCheck();
    const answer = new BindingResponder(agent).answer(request, '192.0.2.71', 54321);
    const transactionId = request.subarray(8, 20);
    const werift = new Message(BINDING, RESPONSE, transactionId)
      .setAttribute('XOR-MAPPED-ADDRESS', ['192.0.2.71', 54321])
      .addMessageIntegrity(Buffer.from(agent.localPassword, 'utf8'))
      .addFingerprint().bytes;
    expect(answer?.toString('hex')).toBe(werift.toString('hex'));

    // And the browser's side accepts it: integrity verifies, the mapped address is its own.
    const parsed = parseMessage(answer!, Buffer.from(agent.localPassword, 'utf8'));
    expect(parsed?.getAttributeValue('XOR-MAPPED-ADDRESS')).toEqual(['192.0.2.71', 54321]);
    expect(parsed?.transactionId.equals(transactionId)).toBe(true);
  });

  it('keeps answering with the new password after an ICE restart', () => {
    const restarted = { ...agent };
    const responder = new BindingResponder(restarted);
    expect(responder.answer(consentCheck(), '192.0.2.71', 1)).toBeDefined();
    restarted.localUsername = 'Srv2';
    restarted.localPassword = 'a-fresh-password-after-restart';
    restarted.remoteUsername = 'brws2';
    // The old credentials are werift's to judge now (it keeps a history of them).
    expect(responder.answer(consentCheck(), '192.0.2.71', 1)).toBeUndefined();
    const fresh = consentCheck({ username: 'Srv2:brws2', password: restarted.localPassword });
    const answer = responder.answer(fresh, '192.0.2.71', 1);
    expect(parseMessage(answer!, Buffer.from(restarted.localPassword, 'utf8'))).toBeDefined();
  });

  it('leaves everything but the plain, verified case to werift', () => {
    const responder = new BindingResponder(agent);
    const host = '192.0.2.71';
    const cases: [string, Buffer, string?][] = [
      ['wrong password', consentCheck({ password: 'not-the-server-password' })],
      ['another user name', consentCheck({ username: 'Srv1:other' })],
      [
        'a role conflict',
        new Message(BINDING, REQUEST)
          .setAttribute('USERNAME', 'Srv1:brwsr')
          .setAttribute('ICE-CONTROLLING', 1n)
          .addMessageIntegrity(Buffer.from(agent.localPassword, 'utf8'))
          .addFingerprint().bytes,
      ],
      [
        'no integrity',
        new Message(BINDING, REQUEST)
          .setAttribute('USERNAME', 'Srv1:brwsr')
          .setAttribute('ICE-CONTROLLED', 1n).bytes,
      ],
      ['an IPv6 sender', consentCheck(), '2001:db8::1'],
      ['a truncated message', consentCheck().subarray(0, 60)],
      ['RTP', Buffer.from('80786f1a0000000012345678deadbeef', 'hex')],
    ];
    for (const [label, request, from] of cases)
      expect(responder.answer(request, from ?? host, 5000), label).toBeUndefined();

    // One flipped bit in the signed part fails the integrity check.
    const tampered = consentCheck();
    tampered[41] = tampered[41]! ^ 1; // inside PRIORITY
    expect(responder.answer(tampered, host, 5000)).toBeUndefined();

    // When the server is the controlled agent, a check claiming to be controlled is a role conflict.
    const controlled = new BindingResponder({ ...agent, iceControlling: false });
    expect(controlled.answer(consentCheck(), host, 5000)).toBeUndefined();
    const fromController = new Message(BINDING, REQUEST)
      .setAttribute('USERNAME', 'Srv1:brwsr')
      .setAttribute('ICE-CONTROLLING', 1n)
      .addMessageIntegrity(Buffer.from(agent.localPassword, 'utf8'))
      .addFingerprint().bytes;
    expect(controlled.answer(fromController, host, 5000)).toBeDefined();
    // A controlling browser repeats USE-CANDIDATE on its checks of the nominated pair.
    const nominating = new Message(BINDING, REQUEST)
      .setAttribute('USERNAME', 'Srv1:brwsr')
      .setAttribute('ICE-CONTROLLING', 1n)
      .setAttribute('USE-CANDIDATE', null)
      .addMessageIntegrity(Buffer.from(agent.localPassword, 'utf8'))
      .addFingerprint().bytes;
    expect(controlled.answer(nominating, host, 5000)).toBeDefined();
  });
});
