/*
 * SRTP protection of one outgoing SSRC (AES-128 counter mode, HMAC-SHA1-80, RFC 3711), shared by
 * the standalone protector (sfu-datagrams.c) and the fan-out's forwarders (fan-out.c).
 */
#ifndef SFU_SRTP_PROTECT_H
#define SFU_SRTP_PROTECT_H

#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hmac-sha1-pads.h"

#define AUTH_TAG_BYTES 10

typedef struct {
  EVP_CIPHER_CTX *ctr;
  /* SHA-1 states after absorbing key ⊕ ipad and key ⊕ opad (HMAC, RFC 2104). */
  SHA_CTX inner;
  SHA_CTX outer;
  /* (salt · 2^16) ⊕ (SSRC · 2^64): the counter block before the packet index goes in. */
  uint8_t prefix[16];
} srtp_keys_t;

/* Keys `keys` (16, 14 and 20 bytes); false when OpenSSL has no AES-128-CTR (then nothing to free). */
static inline bool srtp_keys_init(srtp_keys_t *keys, const uint8_t *key, const uint8_t *salt,
                                  const uint8_t *auth, uint32_t ssrc) {
  memset(keys, 0, sizeof(*keys));
  keys->ctr = EVP_CIPHER_CTX_new();
  if (!keys->ctr || EVP_EncryptInit_ex(keys->ctr, EVP_aes_128_ctr(), NULL, key, NULL) != 1) {
    EVP_CIPHER_CTX_free(keys->ctr);
    keys->ctr = NULL;
    return false;
  }
  memcpy(keys->prefix, salt, 14);
  keys->prefix[4] ^= (uint8_t)(ssrc >> 24);
  keys->prefix[5] ^= (uint8_t)(ssrc >> 16);
  keys->prefix[6] ^= (uint8_t)(ssrc >> 8);
  keys->prefix[7] ^= (uint8_t)ssrc;
  hmac_sha1_pads(auth, 20, &keys->inner, &keys->outer);
  return true;
}

/* Forgets the keys (the memory is wiped); `keys` may be initialised again. */
static inline void srtp_keys_clear(srtp_keys_t *keys) {
  EVP_CIPHER_CTX_free(keys->ctr);
  OPENSSL_cleanse(keys, sizeof(*keys));
}

/*
 * Encrypts the payload in place and writes the 80-bit tag after it: `packet` holds the header,
 * the payload and AUTH_TAG_BYTES free bytes. `index` is the 48-bit SRTP packet index. False when
 * OpenSSL failed.
 */
static inline bool srtp_protect(srtp_keys_t *keys, uint8_t *packet, size_t header_length,
                                size_t payload_length, uint64_t index) {
  uint8_t counter[16];
  memcpy(counter, keys->prefix, 16);
  for (int i = 0; i < 6; i++) counter[8 + i] ^= (uint8_t)(index >> (40 - 8 * i));
  int written = 0;
  uint8_t *payload = packet + header_length;
  if (EVP_EncryptInit_ex(keys->ctr, NULL, NULL, NULL, counter) != 1 ||
      (payload_length > 0 &&
       EVP_EncryptUpdate(keys->ctr, payload, &written, payload, (int)payload_length) != 1))
    return false;

  size_t authenticated = header_length + payload_length;
  uint32_t rollover = (uint32_t)(index >> 16);
  uint8_t roc[4] = {(uint8_t)(rollover >> 24), (uint8_t)(rollover >> 16), (uint8_t)(rollover >> 8),
                    (uint8_t)rollover};
  uint8_t digest[SHA_DIGEST_LENGTH];
  SHA_CTX sha = keys->inner;
  SHA1_Update(&sha, packet, authenticated);
  SHA1_Update(&sha, roc, sizeof(roc));
  SHA1_Final(digest, &sha);
  sha = keys->outer;
  SHA1_Update(&sha, digest, sizeof(digest));
  SHA1_Final(digest, &sha);
  memcpy(packet + authenticated, digest, AUTH_TAG_BYTES);
  return true;
}

#endif
