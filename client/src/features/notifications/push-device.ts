import { API_PATHS } from '../../../../protocol/api-paths';
import { pushPublicKeySchema, type PushEndpointBody, type PushSubscribeBody } from '../../../../protocol/push';
import { apiJson, apiRequest } from '../../lib/query-client';

/** This device's notifications: on (with its endpoint), off, or blocked in the browser's settings. */
export type PushDeviceState = { status: 'on'; endpoint: string } | { status: 'off' } | { status: 'denied' };

/** The person said no in the browser's prompt, or had blocked notifications for this site. */
export class PushPermissionDenied extends Error {
  constructor() {
    super('Notifications are blocked for Chirp in this browser');
  }
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

/**
 * Whether this device has notifications on (a subscription in the browser) and may ask for them. A
 * subscription the browser kept is told to the server again: a sign-out removed the server's row
 * (decision 035), and the person signed in now may be another one on this browser.
 */
export async function readPushDevice(): Promise<PushDeviceState> {
  if (Notification.permission === 'denied') return { status: 'denied' };
  const subscription = await (await registration()).pushManager.getSubscription();
  if (!subscription || Notification.permission !== 'granted') return { status: 'off' };
  await tellServer(subscription);
  return { status: 'on', endpoint: subscription.endpoint };
}

async function tellServer(subscription: PushSubscription): Promise<void> {
  const body = subscription.toJSON() as PushSubscribeBody;
  await apiRequest('POST', API_PATHS.pushSubscribe, body);
}

function base64urlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Turns notifications on for this device: the browser's permission prompt (only now, after the
 * person's click), a subscription to the server's VAPID key, and the server told of it. A
 * subscription made with another key (the server's keys changed) is replaced.
 */
export async function turnOnPush(): Promise<PushDeviceState> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushPermissionDenied();
  const { publicKey } = await apiJson(pushPublicKeySchema, 'GET', API_PATHS.pushPublicKey);
  const applicationServerKey = base64urlToBytes(publicKey);
  const { pushManager } = await registration();
  const existing = await pushManager.getSubscription();
  if (existing && !sameKey(existing.options.applicationServerKey, applicationServerKey)) await existing.unsubscribe();
  const subscription = await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  await tellServer(subscription);
  return { status: 'on', endpoint: subscription.endpoint };
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a) return false;
  const bytes = new Uint8Array(a);
  return bytes.length === b.length && bytes.every((byte, i) => byte === b[i]);
}

/** Turns notifications off: the server forgets this device, then the browser's subscription goes. */
export async function turnOffPush(): Promise<PushDeviceState> {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (subscription) {
    const body: PushEndpointBody = { endpoint: subscription.endpoint };
    await apiRequest('POST', API_PATHS.pushUnsubscribe, body);
    await subscription.unsubscribe();
  }
  return { status: 'off' };
}

/** Asks the server to send this device a test notification. */
export async function sendTestPush(endpoint: string): Promise<void> {
  const body: PushEndpointBody = { endpoint };
  await apiRequest('POST', API_PATHS.pushTest, body);
}
