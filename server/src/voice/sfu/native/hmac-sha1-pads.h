/*
 * HMAC-SHA1 (RFC 2104) with its key's pads absorbed once: the SHA-1 states after key ⊕ ipad and
 * key ⊕ opad. SRTP's authentication (sfu-datagrams.c) and STUN's MESSAGE-INTEGRITY
 * (receive-thread.c) both MAC many messages with one key.
 */
#ifndef SFU_HMAC_SHA1_PADS_H
#define SFU_HMAC_SHA1_PADS_H

#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SHA1_BLOCK 64

/* `key` must be at most SHA1_BLOCK bytes (callers check). */
static inline void hmac_sha1_pads(const uint8_t *key, size_t key_length, SHA_CTX *inner,
                                  SHA_CTX *outer) {
  uint8_t pad[SHA1_BLOCK];
  memset(pad, 0x36, sizeof(pad));
  for (size_t i = 0; i < key_length; i++) pad[i] ^= key[i];
  SHA1_Init(inner);
  SHA1_Update(inner, pad, sizeof(pad));
  memset(pad, 0x5c, sizeof(pad));
  for (size_t i = 0; i < key_length; i++) pad[i] ^= key[i];
  SHA1_Init(outer);
  SHA1_Update(outer, pad, sizeof(pad));
  OPENSSL_cleanse(pad, sizeof(pad));
}

#endif
