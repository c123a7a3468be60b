/**
 * Every REST path of the API (spec §7 and DESIGN §3), written once. Parameters are `:name`, as the
 * server's router declares them; `apiPath()` fills them in for a caller.
 */
export const API_PATHS = {
  // Sign-in (DESIGN §3 "Sign-in"): the browser navigates to these.
  login: '/api/login',
  callback: '/api/callback',
  logout: '/api/logout',
  authUser: '/api/auth/user',

  users: '/api/users',
  userChannels: '/api/users/:userId/channels',
  userSubscription: '/api/users/:id/subscription',
  userBlock: '/api/users/:id/block',
  blockedUsers: '/api/blocked-users',

  channels: '/api/channels',
  /** Missed transmissions and who is there, per channel of mine (the Channels menu). */
  channelActivity: '/api/channels/activity',
  channel: '/api/channels/:id',
  channelMembers: '/api/channels/:id/members',
  channelMember: '/api/channels/:id/members/:memberId',
  channelMemberMute: '/api/channels/:id/members/:memberId/mute',
  channelMemberPoke: '/api/channels/:id/members/:memberId/poke',
  mutedUsers: '/api/muted-users/:channelId',
  /** A channel admin sets the channel's talk mode (open or walkie-talkie). */
  channelTalkMode: '/api/channels/:id/talk-mode',
  /** A channel admin marks the channel an SOS channel (decision 050). */
  channelSos: '/api/channels/:id/sos',
  /** A walkie-talkie channel's kept transmissions, one's audio, and "seen". */
  channelTransmissions: '/api/channels/:id/transmissions',
  channelTransmissionAudio: '/api/channels/:id/transmissions/:transmissionId/audio',
  channelTransmissionsRead: '/api/channels/:id/transmissions/read',

  /** Direct walkie-talkie conversations: mine, and get-or-create one with a person. */
  conversations: '/api/conversations',

  contacts: '/api/contacts',
  contact: '/api/contacts/:id',

  inviteGenerate: '/api/invite/generate',
  inviteAccept: '/api/invite/accept',
  /** Public: the channel and inviter an invite link names, for the page it opens (decision 047). */
  invitePreview: '/api/invite/preview',
  /** A channel admin's view of the channel's live invite links, and revoking one. */
  channelInvites: '/api/channels/:id/invites',
  channelInvite: '/api/channels/:id/invites/:inviteId',

  /** Owner setup: whether the server has an owner, and claiming it with the setup code. */
  setup: '/api/setup',
  setupClaim: '/api/setup/claim',

  usage: '/api/usage',
  payAsYouGoEnable: '/api/usage/pay-as-you-go/enable',
  payAsYouGoDisable: '/api/usage/pay-as-you-go/disable',
  usageSessionStart: '/api/usage/session/start',
  usageSessionEnd: '/api/usage/session/end',

  voiceToken: '/api/livekit-token',
  /** Called by LiveKit, signed with its API secret; not by browsers. */
  livekitWebhook: '/api/livekit/webhook',

  /** Family SOS (decision 050): raise one, my channels' open alerts, and acting on one. */
  sos: '/api/sos',
  sosLocation: '/api/sos/:id/location',
  sosAck: '/api/sos/:id/ack',
  sosResolve: '/api/sos/:id/resolve',
  sosArm: '/api/sos/arm',
  sosDisarm: '/api/sos/disarm',

  calls: '/api/calls',
  callIceServers: '/api/calls/ice-servers',

  /** Public: what the server offers (billing, legal links), read before anyone signs in. */
  serverConfig: '/api/config',
  /** The signed-in user's own account (Settings): password change and deletion. */
  account: '/api/account',
  accountPassword: '/api/account/password',
  /** The signed-in user's own first and last name. */
  accountName: '/api/account/name',
  /** The signed-in user's own voice preferences: roger beep, per-member volumes. */
  voicePreferences: '/api/voice-preferences',
  memberVolume: '/api/voice-preferences/member-volumes/:memberId',

  // Web Push: the server's VAPID public key, and this device's subscription.
  pushPublicKey: '/api/push/public-key',
  pushSubscribe: '/api/push/subscribe',
  pushUnsubscribe: '/api/push/unsubscribe',
  pushTest: '/api/push/test',
  /** Which kinds of event notify me; and one channel's "Notify me". */
  pushPreferences: '/api/push/preferences',
  channelNotify: '/api/channels/:id/notify',
} as const;

export type ApiPathTemplate = (typeof API_PATHS)[keyof typeof API_PATHS];

/** The `:name` parameters of a path template, e.g. `'id' | 'memberId'`. */
export type PathParamNames<T extends string> = T extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : T extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<T extends string> = { [K in PathParamNames<T>]: string | number };

/** Fills a template's parameters (URL-encoded): `apiPath(API_PATHS.channel, { id: 7 })`. */
export function apiPath<T extends string>(template: T, params: PathParams<T>): string {
  const values = params as Record<string, string | number>;
  return template.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`apiPath: missing :${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}
