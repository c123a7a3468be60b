import { describe, expect, it } from 'vitest';
import { pushTapUrl } from '../../../../../protocol/push';
import {
  FALLBACK_NOTIFICATION,
  notificationForPush,
  notificationOptions,
  tapPath,
  windowForTap,
} from './push-routing';

const origin = 'https://chirp.example';
const call = {
  kind: 'call',
  title: 'Ava is calling',
  body: 'Tap to answer',
  tag: 'call-abc12345',
  url: pushTapUrl.call('abc12345'),
} as const;

describe('notificationForPush', () => {
  it('shows what the payload says', () => {
    expect(notificationForPush(() => call)).toEqual(call);
  });
  it('still shows a notification for no payload, text that is not JSON, or JSON that is not a payload', () => {
    expect(notificationForPush(null)).toEqual(FALLBACK_NOTIFICATION);
    expect(
      notificationForPush(() => {
        throw new SyntaxError('Unexpected token');
      }),
    ).toEqual(FALLBACK_NOTIFICATION);
    expect(notificationForPush(() => ({ title: 'no kind' }))).toEqual(FALLBACK_NOTIFICATION);
  });
});

describe('notificationOptions', () => {
  const sos = {
    kind: 'sos',
    title: 'SOS from Ava',
    body: 'Family · tap to see where and listen',
    tag: 'sos-0b6c3f0e-1d1e-4a43-9a3e-6d2f0c1b2a3d',
    url: pushTapUrl.sos('0b6c3f0e-1d1e-4a43-9a3e-6d2f0c1b2a3d'),
  } as const;
  it('keeps an SOS on screen until acted on, buzzing, and its tap opens the alert', () => {
    const options = notificationOptions(sos);
    expect(options).toMatchObject({ requireInteraction: true, renotify: true, tag: sos.tag });
    expect(options.vibrate?.length).toBeGreaterThan(1);
    expect(tapPath(options.data, origin)).toBe('/?sos=0b6c3f0e-1d1e-4a43-9a3e-6d2f0c1b2a3d');
  });
  it('shows other kinds plainly', () => {
    const options = notificationOptions(call);
    expect(options.requireInteraction).toBeUndefined();
    expect(options.vibrate).toBeUndefined();
  });
});

describe('tapPath', () => {
  it('opens the url a notification carries', () => {
    expect(tapPath({ url: pushTapUrl.transmission(7, 'tx-1') }, origin)).toBe(
      '/?channel=7&play=tx-1',
    );
  });
  it('never leaves the origin, and falls back to the main screen', () => {
    expect(tapPath({ url: '//evil.example/steal' }, origin)).toBe('/');
    expect(tapPath({ url: 'https://evil.example/' }, origin)).toBe('/');
    expect(tapPath(undefined, origin)).toBe('/');
    expect(tapPath({ url: 42 }, origin)).toBe('/');
  });
});

describe('windowForTap', () => {
  const win = (url: string, focused: boolean, visibilityState: DocumentVisibilityState) => ({
    url,
    focused,
    visibilityState,
  });
  it('prefers the focused window, then a visible one, then any of ours', () => {
    const hidden = win(`${origin}/settings`, false, 'hidden');
    const visible = win(`${origin}/`, false, 'visible');
    const focused = win(`${origin}/contacts`, true, 'visible');
    expect(windowForTap([hidden, visible, focused], origin)).toBe(focused);
    expect(windowForTap([hidden, visible], origin)).toBe(visible);
    expect(windowForTap([hidden], origin)).toBe(hidden);
  });
  it('opens a new window when none of ours is open', () => {
    expect(windowForTap([], origin)).toBeNull();
    expect(windowForTap([win('https://other.example/', true, 'visible')], origin)).toBeNull();
  });
});
