/*
 * A talker's fan-out in one call: for each listener, that listener's RTP header, SRTP and the
 * sendto, with the listener's forwarding state kept here instead of in JavaScript.
 *
 * With the encryption alone in C (`protect`), a forwarded packet still cost each listener a fresh
 * Buffer, the header's byte stores, two N-API crossings with their argument checks and a share of
 * the garbage collector: more CPU than the encryption and the send together (decision 060). Here
 * one `forwardPacket` call serves the whole fan-out: the datagram is written into the listener's
 * NACK history slot, encrypted there and sent from there, so nothing is allocated per packet.
 *
 * A forwarder (`createForwarder`) is the state `RtpForwarder` (rtp-forwarder.ts) keeps in
 * JavaScript: the listener's SSRC and sequence/timestamp offsets, the SRTP index, the RED choice
 * after a loss, the last NACK_HISTORY datagrams and the sender-report counts. `NativeRtpForwarder`
 * (native-rtp-forwarder.ts) owns one per talker and listener and feeds it what changes rarely
 * (keys, route, codec). Both forwarders write the same bytes for the same packets
 * (rtp-forwarder.test.ts runs on both).
 *
 * Every argument is checked: a wrong one throws a TypeError/RangeError, or (in the fan-out's loop)
 * skips that listener; nothing reads or writes outside the buffers it was given.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "fan-out.h"
#include "napi-args.h"
#include "srtp-protect.h"

/* Marks a forwarder's memory, so that no other external passes for one. */
#define FORWARDER_MAGIC 0x46574452u
#define RTP_HEADER_BYTES 12
/* The largest payload forwarded: a UDP datagram's limit less the header and the tag. */
#define MAX_PAYLOAD (65507 - RTP_HEADER_BYTES - AUTH_TAG_BYTES)
/* As rtp-forwarder.ts: the history, the resends per datagram, a frame's ticks, the NTP refresh. */
#define NACK_HISTORY 32
#define MAX_RESENDS 2
#define OPUS_FRAME_TICKS 960u
#define NTP_EVERY 25u
#define NTP_UNIX_OFFSET 2208988800ull

typedef struct {
  uint8_t *data;
  size_t capacity;
  size_t length;
  int32_t sequence; /* -1: empty */
  uint8_t resends;
} sent_t;

typedef struct {
  uint32_t magic;
  bool keyed;
  srtp_keys_t keys;
  /* The nominated pair's socket and the listener's address; fd -1: built here, sent by werift. */
  int fd;
  union {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
  } address;
  socklen_t address_length;
  uint32_t ssrc;
  uint8_t payload_type;
  bool sends_red;
  uint32_t red_after_loss;
  uint32_t redundancy_left;
  bool has_source;
  uint32_t source_ssrc;
  uint16_t sequence_offset;
  uint32_t timestamp_offset;
  uint16_t last_sequence;
  uint32_t last_timestamp;
  int64_t highest_index; /* -1 before the session's first packet */
  uint32_t packet_count;
  uint32_t octet_count;
  uint32_t report_timestamp;
  uint64_t report_ntp;
  /* Allocated at the first packet: most forwarders (members who never talk) never need one. */
  sent_t *sent;
} forwarder_t;

/* One talker packet as the fan-out's arguments give it. */
typedef struct {
  uint32_t ssrc;
  uint16_t sequence;
  uint32_t timestamp;
  bool marker;
  const uint8_t *payload;
  size_t payload_length;
  const uint8_t *red; /* NULL when the packet has no RED form */
  size_t red_length;
  const uint8_t *red_primary; /* the frame alone in a RED payload; NULL when no listener needs it */
  size_t red_primary_length;
} talker_packet_t;

static void forget_history(forwarder_t *f) {
  if (!f->sent) return;
  for (int i = 0; i < NACK_HISTORY; i++) {
    if (f->sent[i].data) OPENSSL_cleanse(f->sent[i].data, f->sent[i].capacity);
    free(f->sent[i].data);
    f->sent[i] = (sent_t){.sequence = -1};
  }
}

static void clear_forwarder(forwarder_t *f) {
  if (f->keyed) srtp_keys_clear(&f->keys);
  f->keyed = false;
  forget_history(f);
  free(f->sent);
  f->sent = NULL;
  f->fd = -1;
}

static void free_forwarder(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  forwarder_t *f = data;
  clear_forwarder(f);
  f->magic = 0;
  free(f);
}

static forwarder_t *forwarder_arg(napi_env env, napi_value value) {
  forwarder_t *f = NULL;
  if (napi_get_value_external(env, value, (void **)&f) != napi_ok || !f ||
      f->magic != FORWARDER_MAGIC) {
    throw_type(env, "expected a forwarder");
    return NULL;
  }
  return f;
}

/* A Buffer, or NULL for null/undefined; false (with a TypeError) for anything else. */
static bool optional_buffer(napi_env env, napi_value value, const uint8_t **data, size_t *length) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok) return false;
  if (type == napi_null || type == napi_undefined) {
    *data = NULL;
    *length = 0;
    return true;
  }
  *data = buffer_arg(env, value, length);
  return *data != NULL;
}

static uint64_t ntp_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t seconds = (uint64_t)now.tv_sec + NTP_UNIX_OFFSET;
  uint64_t fraction = ((uint64_t)now.tv_nsec << 32) / 1000000000ull;
  return (seconds << 32) | fraction;
}

/* The 48-bit SRTP index (rollover counter · 2^16 + sequence number), tolerating reordering. */
static uint64_t packet_index(forwarder_t *f, uint16_t sequence) {
  if (f->highest_index < 0) {
    f->highest_index = sequence;
    return sequence;
  }
  int32_t highest_sequence = (int32_t)(f->highest_index & 0xffff);
  int32_t delta = (int32_t)(((uint32_t)sequence - (uint32_t)highest_sequence + 0x8000u) & 0xffffu) -
                  0x8000;
  int64_t index = f->highest_index + delta;
  if (index < 0) index = 0;
  if (index > f->highest_index) f->highest_index = index;
  return (uint64_t)index;
}

/*
 * Writes the listener's datagram for `p` into its history slot and encrypts it there; NULL when
 * this listener gets nothing (no keys yet, a RED listener with no RED form given, out of memory).
 */
static sent_t *write_datagram(forwarder_t *f, const talker_packet_t *p) {
  if (!f->keyed) return NULL;
  const uint8_t *payload = p->payload;
  size_t length = p->payload_length;
  if (f->sends_red) {
    if (f->redundancy_left > 0 && p->red) {
      f->redundancy_left--;
      payload = p->red;
      length = p->red_length;
    } else if (p->red_primary) {
      payload = p->red_primary;
      length = p->red_primary_length;
    } else {
      return NULL;
    }
  }
  if (length > MAX_PAYLOAD) return NULL;
  if (!f->sent) {
    f->sent = calloc(NACK_HISTORY, sizeof(sent_t));
    if (!f->sent) return NULL;
    for (int i = 0; i < NACK_HISTORY; i++) f->sent[i].sequence = -1;
  }

  /* A new upstream SSRC (the talker's stream restarted): continue our numbering seamlessly. */
  if (!f->has_source || p->ssrc != f->source_ssrc) {
    if (f->has_source) {
      f->sequence_offset = (uint16_t)(f->last_sequence + 1u - p->sequence);
      f->timestamp_offset = f->last_timestamp + OPUS_FRAME_TICKS - p->timestamp;
    }
    f->has_source = true;
    f->source_ssrc = p->ssrc;
  }
  uint16_t sequence = (uint16_t)(p->sequence + f->sequence_offset);
  uint32_t timestamp = p->timestamp + f->timestamp_offset;
  uint64_t index = packet_index(f, sequence);
  f->last_sequence = sequence;
  f->last_timestamp = timestamp;

  sent_t *slot = &f->sent[sequence % NACK_HISTORY];
  size_t size = RTP_HEADER_BYTES + length + AUTH_TAG_BYTES;
  if (slot->capacity < size) {
    /* Room for a RED payload from the start, so that a slot rarely grows. */
    size_t capacity = size < 256 ? 256 : size;
    uint8_t *grown = malloc(capacity);
    if (!grown) return NULL;
    free(slot->data);
    slot->data = grown;
    slot->capacity = capacity;
  }
  uint8_t *out = slot->data;
  out[0] = 0x80;
  out[1] = (uint8_t)((p->marker ? 0x80 : 0) | (f->payload_type & 0x7f));
  out[2] = (uint8_t)(sequence >> 8);
  out[3] = (uint8_t)sequence;
  out[4] = (uint8_t)(timestamp >> 24);
  out[5] = (uint8_t)(timestamp >> 16);
  out[6] = (uint8_t)(timestamp >> 8);
  out[7] = (uint8_t)timestamp;
  out[8] = (uint8_t)(f->ssrc >> 24);
  out[9] = (uint8_t)(f->ssrc >> 16);
  out[10] = (uint8_t)(f->ssrc >> 8);
  out[11] = (uint8_t)f->ssrc;
  if (length > 0) memcpy(out + RTP_HEADER_BYTES, payload, length);
  if (!srtp_protect(&f->keys, out, RTP_HEADER_BYTES, length, index)) {
    slot->sequence = -1;
    return NULL;
  }
  slot->length = size;
  slot->sequence = sequence;
  slot->resends = 0;

  /* The sender reports' counts, and the RTP/NTP clock pair twice a second. */
  f->packet_count++;
  f->octet_count += (uint32_t)length;
  if (f->packet_count % NTP_EVERY == 1) {
    f->report_timestamp = timestamp;
    f->report_ntp = ntp_now();
  }
  return slot;
}

static bool send_slot(const forwarder_t *f, const sent_t *slot) {
  if (f->fd < 0) return false;
  ssize_t result;
  do {
    result = sendto(f->fd, slot->data, slot->length, MSG_DONTWAIT,
                    (const struct sockaddr *)&f->address, f->address_length);
  } while (result < 0 && errno == EINTR);
  /* A send the kernel refuses (a full buffer, an unreachable address) is a datagram lost. */
  return result >= 0;
}

static bool uint32_arg(napi_env env, napi_value value, uint32_t *out, const char *message) {
  if (napi_get_value_uint32(env, value, out) != napi_ok) {
    throw_type(env, message);
    return false;
  }
  return true;
}

/* Reads the talker packet from argv[0..7]: ssrc, sequence, timestamp, marker, payload, red, primary */
static bool talker_packet_args(napi_env env, napi_value *argv, talker_packet_t *p) {
  uint32_t sequence;
  if (!uint32_arg(env, argv[0], &p->ssrc, "ssrc must be a number") ||
      !uint32_arg(env, argv[1], &sequence, "sequenceNumber must be a number") ||
      !uint32_arg(env, argv[2], &p->timestamp, "timestamp must be a number"))
    return false;
  p->sequence = (uint16_t)sequence;
  if (napi_get_value_bool(env, argv[3], &p->marker) != napi_ok) {
    throw_type(env, "marker must be a boolean");
    return false;
  }
  p->payload = buffer_arg(env, argv[4], &p->payload_length);
  if (!p->payload) return false;
  return optional_buffer(env, argv[5], &p->red, &p->red_length) &&
         optional_buffer(env, argv[6], &p->red_primary, &p->red_primary_length);
}

/* createForwarder(ssrc, sequenceOffset, timestampOffset, redAfterLoss) → forwarder */
static napi_value create_forwarder(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_args(env, info, 4, argv,
                "createForwarder(ssrc, sequenceOffset, timestampOffset, redAfterLoss)"))
    return NULL;
  uint32_t ssrc, sequence_offset, timestamp_offset, red_after_loss;
  if (!uint32_arg(env, argv[0], &ssrc, "ssrc must be a number") ||
      !uint32_arg(env, argv[1], &sequence_offset, "sequenceOffset must be a number") ||
      !uint32_arg(env, argv[2], &timestamp_offset, "timestampOffset must be a number") ||
      !uint32_arg(env, argv[3], &red_after_loss, "redAfterLoss must be a number"))
    return NULL;
  forwarder_t *f = calloc(1, sizeof(forwarder_t));
  if (!f) return throw_range(env, "out of memory");
  f->magic = FORWARDER_MAGIC;
  f->fd = -1;
  f->ssrc = ssrc;
  f->payload_type = 111;
  f->sequence_offset = (uint16_t)sequence_offset;
  f->timestamp_offset = timestamp_offset;
  f->red_after_loss = red_after_loss;
  f->highest_index = -1;
  napi_value external;
  if (napi_create_external(env, f, free_forwarder, NULL, &external) != napi_ok) {
    free_forwarder(env, f, NULL);
    return NULL;
  }
  return external;
}

/*
 * forwarderKeys(forwarder, key, salt, authKey): a new SRTP session (AES-128-CM keys of 16, 14 and
 * 20 bytes), or none with `key` null. The packet index starts afresh and the history goes: what
 * the old keys encrypted is no use to the listener.
 */
static napi_value forwarder_keys(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_args(env, info, 4, argv, "forwarderKeys(forwarder, key, salt, authKey)")) return NULL;
  forwarder_t *f = forwarder_arg(env, argv[0]);
  if (!f) return NULL;
  const uint8_t *key, *salt = NULL, *auth = NULL;
  size_t key_length, salt_length, auth_length;
  if (!optional_buffer(env, argv[1], &key, &key_length)) return NULL;
  if (key) {
    salt = buffer_arg(env, argv[2], &salt_length);
    if (!salt) return NULL;
    auth = buffer_arg(env, argv[3], &auth_length);
    if (!auth) return NULL;
    if (key_length != 16 || salt_length != 14 || auth_length != 20)
      return throw_range(env, "AES-128-CM keys are 16, 14 and 20 bytes");
  }
  if (f->keyed) srtp_keys_clear(&f->keys);
  f->keyed = false;
  f->highest_index = -1;
  forget_history(f);
  if (key && !srtp_keys_init(&f->keys, key, salt, auth, f->ssrc))
    return throw_range(env, "AES-128-CTR is not available");
  f->keyed = key != NULL;
  return NULL;
}

/*
 * forwarderRoute(forwarder, fd, address): the nominated pair's socket and the listener's sockaddr
 * (`socketAddress`); fd -1 (or address null): nothing is sent here, werift sends what is built.
 */
static napi_value forwarder_route(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!get_args(env, info, 3, argv, "forwarderRoute(forwarder, fd, address)")) return NULL;
  forwarder_t *f = forwarder_arg(env, argv[0]);
  if (!f) return NULL;
  int32_t fd;
  if (napi_get_value_int32(env, argv[1], &fd) != napi_ok)
    return throw_type(env, "fd must be a number");
  const uint8_t *address;
  size_t length;
  if (!optional_buffer(env, argv[2], &address, &length)) return NULL;
  f->fd = -1;
  if (fd < 0 || !address) return NULL;
  sa_family_t family;
  if (length < sizeof(family)) return throw_range(env, "not a socket address");
  memcpy(&family, address, sizeof(family));
  if (!((family == AF_INET && length == sizeof(struct sockaddr_in)) ||
        (family == AF_INET6 && length == sizeof(struct sockaddr_in6))))
    return throw_range(env, "not a socket address");
  memcpy(&f->address, address, length);
  f->address_length = (socklen_t)length;
  f->fd = fd;
  return NULL;
}

/* forwarderCodec(forwarder, payloadType, sendsRed): what the listener's browser negotiated. */
static napi_value forwarder_codec(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!get_args(env, info, 3, argv, "forwarderCodec(forwarder, payloadType, sendsRed)"))
    return NULL;
  forwarder_t *f = forwarder_arg(env, argv[0]);
  if (!f) return NULL;
  uint32_t payload_type;
  bool sends_red;
  if (!uint32_arg(env, argv[1], &payload_type, "payloadType must be a number")) return NULL;
  if (payload_type > 127) return throw_range(env, "payloadType must be 0–127");
  if (napi_get_value_bool(env, argv[2], &sends_red) != napi_ok)
    return throw_type(env, "sendsRed must be a boolean");
  f->payload_type = (uint8_t)payload_type;
  f->sends_red = sends_red;
  return NULL;
}

/*
 * forwardPacket(forwarders, count, ssrc, sequenceNumber, timestamp, marker, payload, red,
 * redPrimary) → how many datagrams the kernel took. The talker's packet goes to forwarders[0..count)
 * through their own sockets; one without keys or a route sends nothing.
 */
static napi_value forward_packet(napi_env env, napi_callback_info info) {
  napi_value argv[9];
  if (!get_args(env, info, 9, argv,
                "forwardPacket(forwarders, count, ssrc, sequenceNumber, timestamp, marker, "
                "payload, red, redPrimary)"))
    return NULL;
  bool is_array = false;
  CHECK(napi_is_array(env, argv[0], &is_array));
  if (!is_array) return throw_type(env, "forwarders must be an array");
  uint32_t count, length;
  if (!uint32_arg(env, argv[1], &count, "count must be a number")) return NULL;
  CHECK(napi_get_array_length(env, argv[0], &length));
  if (count > length) return throw_range(env, "count exceeds the array");
  talker_packet_t packet;
  if (!talker_packet_args(env, argv + 2, &packet)) return NULL;

  uint32_t sent = 0;
  for (uint32_t i = 0; i < count; i++) {
    napi_value element;
    CHECK(napi_get_element(env, argv[0], i, &element));
    forwarder_t *f = forwarder_arg(env, element);
    if (!f) return NULL;
    if (f->fd < 0) continue;
    sent_t *slot = write_datagram(f, &packet);
    if (slot && send_slot(f, slot)) sent++;
  }
  napi_value result;
  CHECK(napi_create_uint32(env, sent, &result));
  return result;
}

/*
 * buildDatagram(forwarder, ssrc, sequenceNumber, timestamp, marker, payload, red, redPrimary) →
 * the listener's datagram (a copy, kept in the history too) for werift to send over a TCP or TURN
 * pair; null when the forwarder has no keys.
 */
static napi_value build_datagram(napi_env env, napi_callback_info info) {
  napi_value argv[8];
  if (!get_args(env, info, 8, argv,
                "buildDatagram(forwarder, ssrc, sequenceNumber, timestamp, marker, payload, red, "
                "redPrimary)"))
    return NULL;
  forwarder_t *f = forwarder_arg(env, argv[0]);
  if (!f) return NULL;
  talker_packet_t packet;
  if (!talker_packet_args(env, argv + 1, &packet)) return NULL;
  napi_value result;
  sent_t *slot = write_datagram(f, &packet);
  if (!slot) {
    CHECK(napi_get_null(env, &result));
    return result;
  }
  void *copy;
  CHECK(napi_create_buffer_copy(env, slot->length, slot->data, &copy, &result));
  return result;
}

/*
 * resendLost(forwarder, lost: number[], copyOut) → how many went again, or (copyOut) the datagrams
 * to send through werift. The listener lost these sequence numbers (RTCP NACK): each still in the
 * history goes again as it was, at most MAX_RESENDS times; and the listener gets the talker's
 * earlier frames (RED) for the next redAfterLoss packets.
 */
static napi_value resend_lost(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!get_args(env, info, 3, argv, "resendLost(forwarder, lost, copyOut)")) return NULL;
  forwarder_t *f = forwarder_arg(env, argv[0]);
  if (!f) return NULL;
  bool is_array = false;
  CHECK(napi_is_array(env, argv[1], &is_array));
  if (!is_array) return throw_type(env, "lost must be an array");
  bool copy_out;
  if (napi_get_value_bool(env, argv[2], &copy_out) != napi_ok)
    return throw_type(env, "copyOut must be a boolean");
  uint32_t length;
  CHECK(napi_get_array_length(env, argv[1], &length));
  f->redundancy_left = f->red_after_loss;

  napi_value copies = NULL;
  if (copy_out) CHECK(napi_create_array(env, &copies));
  uint32_t resent = 0;
  for (uint32_t i = 0; i < length && f->sent; i++) {
    napi_value element;
    uint32_t sequence;
    CHECK(napi_get_element(env, argv[1], i, &element));
    if (napi_get_value_uint32(env, element, &sequence) != napi_ok || sequence > 0xffff) continue;
    sent_t *slot = &f->sent[sequence % NACK_HISTORY];
    if (slot->sequence != (int32_t)sequence || slot->resends >= MAX_RESENDS) continue;
    slot->resends++;
    if (copy_out) {
      napi_value datagram;
      void *data;
      CHECK(napi_create_buffer_copy(env, slot->length, slot->data, &data, &datagram));
      CHECK(napi_set_element(env, copies, resent, datagram));
      resent++;
    } else if (send_slot(f, slot)) {
      resent++;
    }
  }
  if (copy_out) return copies;
  napi_value result;
  CHECK(napi_create_uint32(env, resent, &result));
  return result;
}

/*
 * forwarderReport(forwarder, out: Uint32Array(5)): the sender report's fields — packets, octets,
 * the RTP timestamp and the NTP time (seconds, fraction) sampled together.
 */
static napi_value forwarder_report(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv, "forwarderReport(forwarder, out)")) return NULL;
  forwarder_t *f = forwarder_arg(env, argv[0]);
  if (!f) return NULL;
  bool is_typed = false;
  CHECK(napi_is_typedarray(env, argv[1], &is_typed));
  if (!is_typed) return throw_type(env, "out must be a Uint32Array");
  napi_typedarray_type type;
  size_t length;
  void *data;
  CHECK(napi_get_typedarray_info(env, argv[1], &type, &length, &data, NULL, NULL));
  if (type != napi_uint32_array || length < 5) return throw_type(env, "out must be a Uint32Array(5)");
  uint32_t *out = data;
  out[0] = f->packet_count;
  out[1] = f->octet_count;
  out[2] = f->report_timestamp;
  out[3] = (uint32_t)(f->report_ntp >> 32);
  out[4] = (uint32_t)f->report_ntp;
  return NULL;
}

/* closeForwarder(forwarder): forgets the keys and the history now, not at garbage collection. */
static napi_value close_forwarder(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_args(env, info, 1, argv, "closeForwarder(forwarder)")) return NULL;
  forwarder_t *f = forwarder_arg(env, argv[0]);
  if (!f) return NULL;
  clear_forwarder(f);
  return NULL;
}

napi_status define_fan_out(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"createForwarder", NULL, create_forwarder, NULL, NULL, NULL, napi_enumerable, NULL},
      {"forwarderKeys", NULL, forwarder_keys, NULL, NULL, NULL, napi_enumerable, NULL},
      {"forwarderRoute", NULL, forwarder_route, NULL, NULL, NULL, napi_enumerable, NULL},
      {"forwarderCodec", NULL, forwarder_codec, NULL, NULL, NULL, napi_enumerable, NULL},
      {"forwardPacket", NULL, forward_packet, NULL, NULL, NULL, napi_enumerable, NULL},
      {"buildDatagram", NULL, build_datagram, NULL, NULL, NULL, napi_enumerable, NULL},
      {"resendLost", NULL, resend_lost, NULL, NULL, NULL, napi_enumerable, NULL},
      {"forwarderReport", NULL, forwarder_report, NULL, NULL, NULL, napi_enumerable, NULL},
      {"closeForwarder", NULL, close_forwarder, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  return napi_define_properties(env, exports, sizeof(properties) / sizeof(properties[0]),
                                properties);
}
