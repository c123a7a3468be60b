/*
 * The built-in SFU's per-listener hot path in C: SRTP protection (AES-128 counter mode, HMAC-SHA1-80,
 * RFC 3711) and the UDP send of a talker's fan-out.
 *
 * Each forwarded packet is encrypted for one listener and sent on that listener's socket. In
 * JavaScript that costs ~5 µs of user time per listener (the encryption through node:crypto, our
 * hand-written SHA-1, the native UDP handle's argument checks and request object), about half of the
 * server's CPU per forwarded stream. Here the cipher and hash are OpenSSL's, taken from Node itself
 * (Node ships its OpenSSL headers for addons and exports the symbols; no library is linked), and a
 * fan-out's datagrams go out in one call, one sendto per datagram.
 *
 * Loaded by `native-datagrams.ts`, which falls back to the JavaScript path when this was not built.
 * Every argument is checked here: a wrong one throws a TypeError/RangeError, it never reads or
 * writes outside the buffers it was given.
 */
#define NAPI_VERSION 8
#define OPENSSL_SUPPRESS_DEPRECATED
#include <node_api.h>

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "fan-out.h"
#include "napi-args.h"
#include "receive-thread.h"
#include "srtp-protect.h"

/* The largest datagram a fan-out sends; anything longer is refused (a voice packet is < 1,300). */
#define MAX_DATAGRAM 65507
/* Marks a protector's memory, so that no other external passes for one. */
#define PROTECTOR_MAGIC 0x50524f54u

typedef struct {
  uint32_t magic;
  srtp_keys_t keys;
} protector_t;

static void free_protector(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  protector_t *p = data;
  srtp_keys_clear(&p->keys);
  p->magic = 0;
  free(p);
}

/* createProtector(key: 16 bytes, salt: 14 bytes, authKey: 20 bytes, ssrc: uint32) → external */
static napi_value create_protector(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_args(env, info, 4, argv, "createProtector(key, salt, authKey, ssrc)")) return NULL;
  size_t key_length, salt_length, auth_length;
  uint8_t *key = buffer_arg(env, argv[0], &key_length);
  if (!key) return NULL;
  uint8_t *salt = buffer_arg(env, argv[1], &salt_length);
  if (!salt) return NULL;
  uint8_t *auth = buffer_arg(env, argv[2], &auth_length);
  if (!auth) return NULL;
  uint32_t ssrc;
  if (napi_get_value_uint32(env, argv[3], &ssrc) != napi_ok)
    return throw_type(env, "ssrc must be a number");
  if (key_length != 16 || salt_length != 14 || auth_length != 20)
    return throw_range(env, "AES-128-CM keys are 16, 14 and 20 bytes");

  protector_t *p = calloc(1, sizeof(protector_t));
  if (!p) return throw_range(env, "out of memory");
  if (!srtp_keys_init(&p->keys, key, salt, auth, ssrc)) {
    free(p);
    return throw_range(env, "AES-128-CTR is not available");
  }
  p->magic = PROTECTOR_MAGIC;

  napi_value external;
  if (napi_create_external(env, p, free_protector, NULL, &external) != napi_ok) {
    free_protector(env, p, NULL);
    return NULL;
  }
  return external;
}

/*
 * protect(protector, packet, headerLength, payloadLength, index): encrypts the payload in place and
 * writes the 80-bit tag after it. `index` is the 48-bit SRTP packet index.
 */
static napi_value protect(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  if (!get_args(env, info, 5, argv,
                "protect(protector, packet, headerLength, payloadLength, index)"))
    return NULL;
  napi_valuetype type;
  CHECK(napi_typeof(env, argv[0], &type));
  if (type != napi_external) return throw_type(env, "expected a protector");
  protector_t *p;
  CHECK(napi_get_value_external(env, argv[0], (void **)&p));
  if (!p || p->magic != PROTECTOR_MAGIC) return throw_type(env, "expected a protector");
  size_t length;
  uint8_t *packet = buffer_arg(env, argv[1], &length);
  if (!packet) return NULL;
  int64_t header_length, payload_length, index;
  if (napi_get_value_int64(env, argv[2], &header_length) != napi_ok ||
      napi_get_value_int64(env, argv[3], &payload_length) != napi_ok ||
      napi_get_value_int64(env, argv[4], &index) != napi_ok)
    return throw_type(env, "lengths and index must be numbers");
  if (header_length < 0 || payload_length < 0 || payload_length > INT_MAX || index < 0 ||
      index >= ((int64_t)1 << 48) ||
      (uint64_t)header_length + (uint64_t)payload_length + AUTH_TAG_BYTES > length)
    return throw_range(env, "the packet does not hold its header, payload and tag");
  if (!srtp_protect(&p->keys, packet, (size_t)header_length, (size_t)payload_length,
                    (uint64_t)index))
    return throw_range(env, "encryption failed");
  return NULL;
}

/* socketAddress(host: IP address string, port) → Buffer (a sockaddr_in or sockaddr_in6), or null */
static napi_value socket_address(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv, "socketAddress(host, port)")) return NULL;
  napi_value result;
  CHECK(napi_get_null(env, &result));
  char host[64];
  size_t host_length;
  double port;
  if (napi_get_value_string_utf8(env, argv[0], host, sizeof(host), &host_length) != napi_ok ||
      napi_get_value_double(env, argv[1], &port) != napi_ok)
    return throw_type(env, "socketAddress(host: string, port: number)");
  /* A whole port in 1–65535 (NaN fails every comparison), and a host that was not cut short. */
  if (!(port >= 1 && port <= 0xffff && port == (double)(uint16_t)port) ||
      host_length >= sizeof(host) - 1)
    return result;

  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  void *address;
  size_t size;
  memset(&v4, 0, sizeof(v4));
  memset(&v6, 0, sizeof(v6));
  if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons((uint16_t)port);
    address = &v4;
    size = sizeof(v4);
  } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons((uint16_t)port);
    address = &v6;
    size = sizeof(v6);
  } else {
    return result;
  }
  void *copy;
  CHECK(napi_create_buffer_copy(env, size, address, &copy, &result));
  return result;
}

/*
 * sendDatagrams(fds: Int32Array, addresses: Buffer[], datagrams: Buffer[], count) → how many were
 * sent. Datagram i goes on socket fds[i] to addresses[i] (from socketAddress). A send the kernel
 * refuses (a full send buffer, an unreachable address) is a datagram lost, as on the wire.
 */
static napi_value send_datagrams(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_args(env, info, 4, argv, "sendDatagrams(fds, addresses, datagrams, count)")) return NULL;
  bool is_typed = false;
  CHECK(napi_is_typedarray(env, argv[0], &is_typed));
  if (!is_typed) return throw_type(env, "fds must be an Int32Array");
  napi_typedarray_type array_type;
  size_t fd_count;
  void *fd_data;
  CHECK(napi_get_typedarray_info(env, argv[0], &array_type, &fd_count, &fd_data, NULL, NULL));
  if (array_type != napi_int32_array) return throw_type(env, "fds must be an Int32Array");
  bool is_array = false;
  CHECK(napi_is_array(env, argv[1], &is_array));
  if (!is_array) return throw_type(env, "addresses must be an array");
  CHECK(napi_is_array(env, argv[2], &is_array));
  if (!is_array) return throw_type(env, "datagrams must be an array");
  uint32_t count, addresses_length, datagrams_length;
  if (napi_get_value_uint32(env, argv[3], &count) != napi_ok)
    return throw_type(env, "count must be a number");
  CHECK(napi_get_array_length(env, argv[1], &addresses_length));
  CHECK(napi_get_array_length(env, argv[2], &datagrams_length));
  if (count > fd_count || count > addresses_length || count > datagrams_length)
    return throw_range(env, "count exceeds the arrays");

  const int32_t *fds = fd_data;
  uint32_t sent = 0;
  for (uint32_t i = 0; i < count; i++) {
    napi_value element;
    size_t address_length, datagram_length;
    CHECK(napi_get_element(env, argv[1], i, &element));
    uint8_t *address = buffer_arg(env, element, &address_length);
    if (!address) return NULL;
    CHECK(napi_get_element(env, argv[2], i, &element));
    uint8_t *datagram = buffer_arg(env, element, &datagram_length);
    if (!datagram) return NULL;
    if (fds[i] < 0 || datagram_length > MAX_DATAGRAM) continue;
    sa_family_t family;
    if (address_length < sizeof(family)) continue;
    memcpy(&family, address, sizeof(family));
    if (!((family == AF_INET && address_length == sizeof(struct sockaddr_in)) ||
          (family == AF_INET6 && address_length == sizeof(struct sockaddr_in6))))
      continue;
    ssize_t result;
    do {
      result = sendto(fds[i], datagram, datagram_length, MSG_DONTWAIT,
                      (const struct sockaddr *)address, (socklen_t)address_length);
    } while (result < 0 && errno == EINTR);
    if (result >= 0) sent++;
  }
  napi_value result;
  CHECK(napi_create_uint32(env, sent, &result));
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"createProtector", NULL, create_protector, NULL, NULL, NULL, napi_enumerable, NULL},
      {"protect", NULL, protect, NULL, NULL, NULL, napi_enumerable, NULL},
      {"socketAddress", NULL, socket_address, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sendDatagrams", NULL, send_datagrams, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  CHECK(napi_define_properties(env, exports, sizeof(properties) / sizeof(properties[0]),
                               properties));
  CHECK(define_receive_thread(env, exports));
  CHECK(define_fan_out(env, exports));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
