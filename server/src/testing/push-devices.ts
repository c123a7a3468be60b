import { expect, vi } from 'vitest';
import { pushPayloadSchema, type PushPayload } from '../../../protocol/push.js';
import { signIn, type Person } from './people.js';
import type { TestServer } from './test-server.js';
import { TestSocket, WAIT_FOR_MESSAGE_MS } from './test-socket.js';
import { DeviceKeys, type LocalPushService } from '../push/testing/local-push-service.js';

/** A device with notifications on: its own sign-in session of the person, subscribed at the local push service. */
export interface Device {
  person: Person;
  keys: DeviceKeys;
  path: string;
}

/** Devices of test people, their pages (sockets that say whether they are visible) and what was pushed to them. */
export class PushDevices {
  private readonly sockets: TestSocket[] = [];

  constructor(
    private readonly pushService: LocalPushService,
    private readonly server: () => TestServer,
  ) {}

  /** Signs the person in once more (a new device) on `server` and turns notifications on there. */
  async device(name: string, email: string, server = this.server()): Promise<Device> {
    const person = await signIn(server, name, email);
    const keys = new DeviceKeys();
    const endpoint = this.pushService.endpoint();
    const response = await person.client.request('/api/push/subscribe', { method: 'POST', json: keys.subscription(endpoint) });
    expect(response.status).toBe(200);
    return { person, keys, path: new URL(endpoint).pathname };
  }

  /** Opens the device's page: a `/ws` socket saying whether it is visible, once the server holds it. */
  async page(of: Device, visible: boolean, server = this.server()): Promise<TestSocket> {
    const socket = await this.socket(of.person);
    socket.send({ type: 'visibility', visible });
    if (visible) {
      await vi.waitFor(
        async () => expect((await server.app.ctx.presence.visibleSessions(of.person.id)).size).toBeGreaterThan(0),
        { timeout: WAIT_FOR_MESSAGE_MS },
      );
    }
    return socket;
  }

  /** A `/ws` socket of the person, closed at the end. */
  async socket(person: Person): Promise<TestSocket> {
    const socket = await TestSocket.open(person.client);
    this.sockets.push(socket);
    return socket;
  }

  /** What the device received, decrypted with its keys; only what the notification shows (strict). */
  pushesTo(of: Device): PushPayload[] {
    return this.pushService.received
      .filter((push) => push.path === of.path)
      .map((push) => pushPayloadSchema.strict().parse(JSON.parse(of.keys.decrypt(push.body))));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) await socket.close();
  }
}
