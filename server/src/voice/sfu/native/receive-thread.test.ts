import type { RemoteInfo, Socket } from 'node:dgram';
import { Message, parseMessage } from 'werift';
import { describe, expect, it } from 'vitest';
import { DatagramBatch } from '../datagram-batch.js';
import { boundSocket, closeLoopbackSocketsAfterEach } from './testing/loopback-sockets.js';
import { nativeDatagrams } from './native-datagrams.js';
import {
  armConsent,
  disarmConsent,
  readOffLoop,
  threadConsentAnswers,
  type ConsentCredentials,
} from './receive-thread.js';

const PASSWORD = 'server-password-22chars';

closeLoopbackSocketsAfterEach();

/** A consent check as a browser sends it to an ICE-lite server (controlled). */
function consentCheck(
  options: {
    username?: string;
    password?: string;
    role?: 'ICE-CONTROLLING' | 'ICE-CONTROLLED';
  } = {},
) {
  return new Message(1, 0)
    .setAttribute('USERNAME', options.username ?? 'Srv1:brwsr')
    .setAttribute('PRIORITY', 1853817087)
    .setAttribute(options.role ?? 'ICE-CONTROLLING', 0x1234_5678_9abc_def0n)
    .addMessageIntegrity(Buffer.from(options.password ?? PASSWORD, 'utf8'))
    .addFingerprint().bytes;
}

function credentials(browser: Socket): ConsentCredentials {
  const remote = new DatagramBatch().socketAddress('127.0.0.1', browser.address().port);
  expect(remote).toBeDefined();
  return {
    remote: remote!,
    username: Buffer.from('Srv1:brwsr'),
    password: Buffer.from(PASSWORD),
    controlling: false,
  };
}

/** What reaches each socket's 'message' listeners. */
function collect(socket: Socket): { data: Buffer; from: RemoteInfo }[] {
  const seen: { data: Buffer; from: RemoteInfo }[] = [];
  socket.on('message', (data, from) => seen.push({ data, from }));
  return seen;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the SFU’s receive thread', () => {
  it('hands what it reads to the socket’s listeners, as libuv would, from the right sender', async () => {
    expect(nativeDatagrams()).toBeDefined();
    const server = await boundSocket();
    const seen = collect(server);
    expect(readOffLoop(server)).toBe(true);
    const browser = await boundSocket();
    for (let i = 0; i < 100; i++)
      browser.send(Buffer.from([0x80, 111, i]), server.address().port, '127.0.0.1');
    await until(() => seen.length === 100, '100 datagrams');
    expect(seen.map((s) => s.data[2])).toEqual([...Array(100).keys()]);
    expect(seen[0]!.from).toEqual({
      address: '127.0.0.1',
      family: 'IPv4',
      port: browser.address().port,
      size: 3,
    });
  });

  it('answers an armed socket’s consent checks itself, with a reply the browser accepts', async () => {
    const server = await boundSocket();
    const seen = collect(server);
    readOffLoop(server);
    const browser = await boundSocket();
    const replies = collect(browser);
    expect(armConsent(server, credentials(browser))).toBe(true);
    const before = threadConsentAnswers();
    const check = consentCheck();
    browser.send(check, server.address().port, '127.0.0.1');
    await until(() => replies.length === 1, 'the answer');
    expect(seen).toEqual([]); // never woke JavaScript
    expect(threadConsentAnswers()).toBe(before + 1);
    const answer = parseMessage(replies[0]!.data, Buffer.from(PASSWORD));
    expect(answer?.messageClass).toBe(256); // success response
    expect(answer?.transactionId.equals(check.subarray(8, 20))).toBe(true);
    expect(answer?.getAttributeValue('XOR-MAPPED-ADDRESS')).toEqual([
      '127.0.0.1',
      browser.address().port,
    ]);
  });

  it('leaves every other check to JavaScript: wrong password, user, role, sender; unarmed', async () => {
    const server = await boundSocket();
    const seen = collect(server);
    readOffLoop(server);
    const browser = await boundSocket();
    const stranger = await boundSocket();
    const replies = collect(browser);
    expect(armConsent(server, credentials(browser))).toBe(true);
    const before = threadConsentAnswers();
    const port = server.address().port;
    browser.send(consentCheck({ password: 'not-the-server-password' }), port, '127.0.0.1');
    browser.send(consentCheck({ username: 'Srv1:other' }), port, '127.0.0.1');
    browser.send(consentCheck({ role: 'ICE-CONTROLLED' }), port, '127.0.0.1');
    stranger.send(consentCheck(), port, '127.0.0.1');
    const tampered = consentCheck();
    tampered[30] = tampered[30]! ^ 1;
    browser.send(tampered, port, '127.0.0.1');
    await until(() => seen.length === 5, 'five checks in JavaScript');
    disarmConsent(server);
    browser.send(consentCheck(), port, '127.0.0.1');
    await until(() => seen.length === 6, 'the check after disarming');
    expect(replies).toEqual([]);
    expect(threadConsentAnswers()).toBe(before);
  });

  it('answers within a budget: a flood of valid checks past it reaches JavaScript’s', async () => {
    const server = await boundSocket();
    const seen = collect(server);
    readOffLoop(server);
    const browser = await boundSocket();
    const replies = collect(browser);
    armConsent(server, credentials(browser));
    for (let i = 0; i < 50; i++) browser.send(consentCheck(), server.address().port, '127.0.0.1');
    await until(() => replies.length + seen.length === 50, 'all 50 checks');
    expect(replies.length).toBeGreaterThanOrEqual(10);
    expect(replies.length).toBeLessThan(15);
  });

  it('lets go of a socket when it closes: the next socket on that descriptor number is read as usual', async () => {
    const first = await boundSocket();
    readOffLoop(first);
    await new Promise<void>((resolve) => first.close(() => resolve()));
    // Often the same descriptor number at once; a reader left on it would steal these datagrams.
    const second = await boundSocket();
    const seen = collect(second);
    const browser = await boundSocket();
    for (let i = 0; i < 20; i++) browser.send(Buffer.from([i]), second.address().port, '127.0.0.1');
    await until(() => seen.length === 20, 'every datagram, through libuv');
    await sleep(20);
    expect(seen).toHaveLength(20);
  });

  it('refuses what is not a UDP socket or an IPv4 destination', async () => {
    const native = nativeDatagrams()!;
    expect(() => native.watchSocket(-1)).toThrow(RangeError);
    expect(() => native.watchSocket(0)).toThrow(RangeError); // stdin, not a socket
    const server = await boundSocket();
    readOffLoop(server);
    const browser = await boundSocket();
    const v6 = new DatagramBatch().socketAddress('::1', 5000)!;
    expect(armConsent(server, { ...credentials(browser), remote: v6 })).toBe(false);
    expect(armConsent(server, { ...credentials(browser), password: Buffer.alloc(65) })).toBe(false);
    expect(() => native.armConsent(1e9, v6, Buffer.from('a'), Buffer.from('b'), false)).toThrow();
    expect(native.unwatchSocket(1e9)).toBe(false);
  });

  // Last: it takes delivery away from this file's module for good.
  it('hands the datagrams to the newest caller in the same process (a module loaded again)', async () => {
    const server = await boundSocket();
    expect(readOffLoop(server)).toBe(true);
    const got: number[] = [];
    expect(nativeDatagrams()!.startReceiving((_id, datagram) => got.push(datagram[0]!))).toBe(true);
    const browser = await boundSocket();
    browser.send(Buffer.from([42]), server.address().port, '127.0.0.1');
    await until(() => got.length === 1, 'the datagram, at the new function');
    expect(got).toEqual([42]);
  });
});
