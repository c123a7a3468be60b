import { randomBytes } from 'node:crypto';
import { ProtectionProfileAes128CmHmacSha1_80, SrtpSession } from 'werift';
import type { SrtpSessionKeys } from '../srtp/srtp-aes-cm.js';
import { aesCmContextKeys } from '../werift-internals.js';

/**
 * werift's own SRTP_AES128_CM_HMAC_SHA1_80 session with one random master key for both directions,
 * so it decrypts what it (or anything holding its keys) encrypts: the reference the SFU's fast path
 * is tested against. `keys` are its derived outgoing session keys.
 */
export function selfKeyedSrtpSession(): { session: SrtpSession; keys: SrtpSessionKeys } {
  const masterKey = randomBytes(16);
  const masterSalt = randomBytes(14);
  const session = new SrtpSession({
    keys: {
      localMasterKey: masterKey,
      localMasterSalt: masterSalt,
      remoteMasterKey: masterKey,
      remoteMasterSalt: masterSalt,
    },
    profile: ProtectionProfileAes128CmHmacSha1_80,
  });
  const keys = aesCmContextKeys(session.localContext);
  if (!keys)
    throw new Error('werift’s SRTP session keys are not where werift-internals.ts reads them');
  return { session, keys };
}
