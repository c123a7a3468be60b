import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import { PUSH_SUBSCRIBED_MESSAGE, pushPayloadSchema, type PushPayload } from '../../protocol/push';
import {
  DeviceKeys,
  LocalPushService,
  type ReceivedPush,
} from '../../server/src/push/testing/local-push-service';
import { expect, test } from './fixtures';

/**
 * Web Push end to end in Chromium. Headless Chromium cannot reach a real push service, so the ONE
 * thing stood in for is the browser's push service: `PushManager.prototype.subscribe` (and
 * `getSubscription`) in the page return a subscription whose endpoint is a local HTTPS push service
 * the spec file starts (the servers trust its certificate: playwright.config.ts) and whose keys the
 * test holds. Everything else is real: the Settings screen, the server's VAPID-signed, encrypted push
 * (RFC 8291), its decryption here with the device's keys, the app's service worker receiving it
 * through the DevTools protocol (`ServiceWorker.deliverPushMessage`) and showing the notification.
 */

const certificate = () => {
  const certFile = process.env.E2E_PUSH_CERT_FILE;
  const keyFile = process.env.E2E_PUSH_KEY_FILE;
  if (!certFile || !keyFile)
    throw new Error('E2E_PUSH_CERT_FILE/E2E_PUSH_KEY_FILE missing (playwright.config.ts)');
  return { certFile, keyFile };
};

/** A device: a browser context whose push subscription lands at the local push service. */
export interface Device {
  context: BrowserContext;
  keys: DeviceKeys;
  endpoint: string;
}

/** Installed before the app loads: the browser's push service, stood in for (see above). */
function standInPushService(device: { endpoint: string; p256dh: string; auth: string }) {
  if (typeof PushManager === 'undefined') return;
  const STORE = 'e2e-push-subscription-key';
  const subscription = (key: number[]) => ({
    endpoint: device.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(key).buffer },
    toJSON: () => ({
      endpoint: device.endpoint,
      expirationTime: null,
      keys: { p256dh: device.p256dh, auth: device.auth },
    }),
    unsubscribe: () => {
      localStorage.removeItem(STORE);
      return Promise.resolve(true);
    },
  });
  PushManager.prototype.subscribe = function (options?: PushSubscriptionOptionsInit) {
    const raw = options?.applicationServerKey;
    const key =
      raw instanceof ArrayBuffer
        ? new Uint8Array(raw)
        : ArrayBuffer.isView(raw)
          ? new Uint8Array(raw.buffer)
          : new Uint8Array();
    localStorage.setItem(STORE, JSON.stringify(Array.from(key)));
    return Promise.resolve(subscription(Array.from(key)) as unknown as PushSubscription);
  };
  PushManager.prototype.getSubscription = function () {
    const stored = localStorage.getItem(STORE);
    return Promise.resolve(
      stored ? (subscription(JSON.parse(stored) as number[]) as unknown as PushSubscription) : null,
    );
  };
}

/** Turns notifications on from Settings → Notifications, as a person would. */
export async function turnOn(page: Page): Promise<void> {
  await page.goto('/settings?section=notifications');
  const card = page.locator('#notifications');
  await card.getByRole('button', { name: 'Turn on notifications on this device' }).click();
  await expect(card.getByText(PUSH_SUBSCRIBED_MESSAGE)).toBeVisible();
}

/** The DevTools session and service worker registration of each page, opened once. */
const workers = new WeakMap<Page, Promise<{ cdp: CDPSession; registrationId: string }>>();

function serviceWorkerOf(page: Page): Promise<{ cdp: CDPSession; registrationId: string }> {
  let found = workers.get(page);
  if (!found) {
    found = (async () => {
      const cdp = await page.context().newCDPSession(page);
      const origin = new URL(page.url()).origin;
      const registration = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const ours = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(origin));
          if (ours) resolve(ours.registrationId);
        });
      });
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await cdp.send('ServiceWorker.enable');
      return { cdp, registrationId: await registration };
    })();
    workers.set(page, found);
  }
  return found;
}

/** Hands a push message to the page's service worker, as the browser does when its push service delivers it. */
async function deliverToServiceWorker(page: Page, data: string): Promise<void> {
  const { cdp, registrationId } = await serviceWorkerOf(page);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(page.url()).origin,
    registrationId,
    data,
  });
}

export type Shown = { title: string; body: string; tag: string; data: unknown };
export async function notificationsShown(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as unknown,
    }));
  });
}

/**
 * Delivers a push to the page's service worker until a notification with `tag` shows. Handed over
 * again if none shows: a push handed over through DevTools was seen not to show now and then (2 runs
 * of 9 with the whole file, never alone); a worker that never shows it fails every attempt.
 */
export async function deliverUntilShown(page: Page, data: string, tag: string): Promise<Shown> {
  let shown: Shown | undefined;
  await expect(async () => {
    await deliverToServiceWorker(page, data);
    await expect
      .poll(async () => (shown = (await notificationsShown(page)).find((n) => n.tag === tag)), {
        timeout: 3000,
      })
      .toBeDefined();
  }).toPass({ timeout: 20_000 });
  return shown!;
}

/** The push service of one spec file (started before its tests, closed after), and its devices. */
export interface PushLab {
  readonly service: LocalPushService;
  newDevice: (browser: Browser, baseURL: string) => Promise<Device>;
  pushesTo: (device: Device) => ReceivedPush[];
  nextPush: (
    device: Device,
    match: (payload: PushPayload) => boolean,
  ) => Promise<{ text: string; payload: PushPayload }>;
}

/** Starts a local push service for the calling spec file's tests. */
export function usePushService(): PushLab {
  let pushService: LocalPushService | undefined;
  test.beforeAll(async () => {
    pushService = await LocalPushService.start(certificate());
  });
  test.afterAll(async () => {
    await pushService?.close();
  });
  const service = () => {
    if (!pushService) throw new Error('the push service starts in beforeAll');
    return pushService;
  };
  async function newDevice(browser: Browser, baseURL: string): Promise<Device> {
    const context = await browser.newContext();
    await context.grantPermissions(['notifications', 'microphone'], { origin: baseURL });
    const keys = new DeviceKeys();
    const endpoint = service().endpoint();
    const { p256dh, auth } = keys.subscription(endpoint).keys;
    await context.addInitScript(standInPushService, { endpoint, p256dh, auth });
    return { context, keys, endpoint };
  }

  /** The pushes the local push service took for one device. */
  const pushesTo = (device: Device): ReceivedPush[] =>
    service().received.filter((push) => push.path === new URL(device.endpoint).pathname);

  /** The next push for `device` that `match` accepts, decrypted with its keys. */
  async function nextPush(
    device: Device,
    match: (payload: PushPayload) => boolean,
  ): Promise<{ text: string; payload: PushPayload }> {
    let found: { text: string; payload: PushPayload } | undefined;
    await expect
      .poll(
        () => {
          for (const push of pushesTo(device)) {
            const text = device.keys.decrypt(push.body);
            const payload = pushPayloadSchema.parse(JSON.parse(text));
            if (match(payload)) found = { text, payload };
          }
          return found !== undefined;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    return found!;
  }

  return {
    get service() {
      return service();
    },
    newDevice,
    pushesTo,
    nextPush,
  };
}
