import type { Config } from '../config/config.js';

export interface LegalDocument {
  title: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
}

/** What the default texts say about this very server, so they are true of it. */
export interface ServerFacts {
  host: string;
  retentionHours: number;
  billing: boolean;
  builtInSignIn: boolean;
  livekit: boolean;
}

export const serverFacts = (config: Config): ServerFacts => ({
  host: config.publicUrl.host,
  retentionHours: config.transmissions.retentionHours,
  billing: config.billing,
  builtInSignIn: config.oidc.builtIn,
  livekit: config.voice.provider === 'livekit',
});

const hours = (n: number) => (n === 1 ? '1 hour' : `${n} hours`);

/**
 * The project's own Terms of Service, shown at /legal/terms unless the operator links theirs
 * (TERMS_URL). Plain words about what Chirp does, for a family, club or team server.
 */
export function defaultTerms(facts: ServerFacts): LegalDocument {
  return {
    title: 'Terms of Service',
    intro: `These terms apply to the Chirp server at ${facts.host}. It is run by a person or an organisation (the operator) for the people they invite; the authors of the Chirp software do not run it.`,
    sections: [
      {
        heading: 'Your account',
        paragraphs: [
          'An account is for one person. Keep your sign-in details to yourself: what is done with your account is on you.',
          'You can delete your account at any time in Settings. The operator may remove an account that breaks these terms.',
        ],
      },
      {
        heading: 'Using Chirp fairly',
        paragraphs: [
          'Do not use Chirp to harass, threaten or deceive anyone, to share what is not yours to share, or to break the law.',
          'Do not try to get into channels, calls or accounts that are not yours, or to get around the limits the server sets. Channel admins may remove members from their channels.',
        ],
      },
      {
        heading: 'What others hear and keep',
        paragraphs: [
          'Everything you say while you are on the air reaches the other people in the channel, live.',
          `Walkie-talkie channels keep each transmission for ${hours(facts.retentionHours)}, so members who missed it can play it back. Say nothing there you would not want replayed.`,
        ],
      },
      {
        heading: 'Usage',
        paragraphs: [
          facts.billing
            ? 'Voice is counted in participant minutes. Each month includes a free allowance; beyond it, voice stops unless you turn on pay-as-you-go at the price shown in the app. Paid plans, where offered, are described on the Upgrade page.'
            : 'This server has no paid plans: voice is free to use within the limits the operator sets.',
        ],
      },
      {
        heading: 'No guarantee',
        paragraphs: [
          'Chirp is provided as it is. It can be interrupted, lose a connection or stop working. Never rely on it to call for help in an emergency: call your local emergency number.',
          'As far as the law allows, the operator is not liable for losses that come from using or not being able to use this server.',
        ],
      },
      {
        heading: 'Changes',
        paragraphs: [
          'The operator may change these terms; the new text appears on this page. Using Chirp after a change means you accept it.',
        ],
      },
    ],
  };
}

/** The project's own Privacy Policy, shown at /legal/privacy unless the operator links theirs (PRIVACY_URL). */
export function defaultPrivacy(facts: ServerFacts): LegalDocument {
  return {
    title: 'Privacy Policy',
    intro: `This page says what the Chirp server at ${facts.host} keeps about you, who sees it and how to remove it. The server's operator is responsible for it.`,
    sections: [
      {
        heading: 'What the server keeps',
        paragraphs: [
          facts.builtInSignIn
            ? 'Your account: your name, your e-mail address and your password, stored only as a slow one-way hash (argon2id).'
            : 'Your account: your name, e-mail address and picture as your sign-in provider passes them on. Your password stays with that provider.',
          'The channels you create and belong to, your contacts and the people you block; your settings (talk mode, member volumes, notifications); when you were online; the voice minutes you used each month; and which calls you made or received, and when.',
          `In walkie-talkie channels, the audio of each transmission for ${hours(facts.retentionHours)}, so that members can replay it. Open channels and one-to-one calls are not recorded.`,
          'If you turn on notifications, the address your browser gives the server to reach this device.',
        ],
      },
      {
        heading: 'Who sees it',
        paragraphs: [
          'The members of a channel see each other’s names, e-mail addresses, whether they are online and who is talking. People you call see your name.',
          'Nothing is sold or shown to advertisers. Chirp has no ads, no analytics and no third-party trackers.',
        ],
      },
      {
        heading: 'Services involved',
        paragraphs: [
          facts.livekit
            ? 'Channel voice passes through the LiveKit voice server the operator set up. One-to-one calls go directly between the two browsers where the network allows.'
            : 'Channel voice passes through this server only. One-to-one calls go directly between the two browsers where the network allows.',
          'Notifications travel through your browser maker’s push service (for example Google, Apple or Mozilla), encrypted so that the push service cannot read them.',
          ...(facts.builtInSignIn ? [] : ['You sign in with the sign-in provider the operator chose; its own privacy policy applies there.']),
        ],
      },
      {
        heading: 'Cookies and this browser',
        paragraphs: [
          'One cookie keeps you signed in; it is removed when you log out. The app keeps a few preferences (such as the last channel you used) in this browser’s storage.',
        ],
      },
      {
        heading: 'Logs',
        paragraphs: [
          'The server logs requests (the address they came from, the time, what was asked) to keep it running and secure. Passwords, sign-in secrets and what you say are never logged.',
        ],
      },
      {
        heading: 'Removing your data',
        paragraphs: [
          'Settings → Delete account removes your account, the channels you created and what the server keeps about you. For anything else, or a copy of your data, ask the operator.',
        ],
      },
    ],
  };
}
