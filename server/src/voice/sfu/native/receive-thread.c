/*
 * The built-in SFU's ICE sockets, read off Node's event loop.
 *
 * An idle member's browser sends a consent check (a STUN binding request, RFC 7675) every 4–6 s.
 * Answering it from Node costs ~150 µs of a core per check on this kind of machine, almost all of
 * it the event loop waking up: 500 idle members cost 1.4–1.7 % of a core, and a bare Node UDP echo
 * of the same checks costs as much (`npm run bench sfu-compare`). A C thread on its own epoll
 * answers the same checks for ~0.25 %.
 *
 * So one thread reads every socket handed to it (`watchSocket`; JavaScript stops libuv reading it
 * first). Each datagram either
 * - is a consent check this thread may answer: a socket is armed (`armConsent`) by JavaScript once
 *   it has answered a check on the nominated pair itself, with the agent's credentials and the
 *   pair's remote address. A check that matches all of it (the same checks as `BindingResponder`)
 *   is answered here, within a budget per socket; or
 * - goes to JavaScript, copied, in batches through a thread-safe function (everything else: media,
 *   RTCP, DTLS, other STUN, checks past the budget), and JavaScript emits it on the socket as libuv
 *   would have.
 *
 * Safety:
 * - `unwatchSocket` runs before the socket's descriptor is closed, under the same lock the thread
 *   holds while it reads; once it returns the thread never touches the descriptor again.
 * - An entry is freed only by the thread, after the epoll events that could still name it.
 * - At most MAX_PENDING datagrams wait for JavaScript; past that they are dropped, as a full
 *   receive buffer would drop them.
 * - One receiver per process: the first Node environment to start it owns it (the server's main
 *   thread); another gets `false` and its sockets stay with libuv. In the owner's environment a
 *   later `startReceiving` (a module loaded again) takes over delivery.
 */
#define NAPI_VERSION 8
#define OPENSSL_SUPPRESS_DEPRECATED
#include <node_api.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hmac-sha1-pads.h"
#include "napi-args.h"
#include "receive-thread.h"

/* A datagram longer than this is not WebRTC's (browsers keep under ~1,300 bytes): dropped. */
#define READ_BYTES 4096
#define READ_BATCH 32
/* Datagrams one socket may have read per wake-up before the others get their turn. */
#define READS_PER_WAKE 64
#define MAX_PENDING 8192
/* Consent answers per socket: a browser checks every 4–6 s; more go to JavaScript's budget. */
#define ANSWERS_PER_SECOND 5.0
#define ANSWER_BURST 10.0

#define STUN_HEADER 20
#define MAGIC_COOKIE 0x2112a442u
#define BINDING_REQUEST 0x0001
#define BINDING_SUCCESS 0x0101
#define ATTR_USERNAME 0x0006
#define ATTR_MESSAGE_INTEGRITY 0x0008
#define ATTR_XOR_MAPPED_ADDRESS 0x0020
#define ATTR_FINGERPRINT 0x8028
#define ATTR_ICE_CONTROLLED 0x8029
#define ATTR_ICE_CONTROLLING 0x802a
#define FINGERPRINT_XOR 0x5354554eu
#define MAX_REQUEST_BYTES 548
#define MAX_USERNAME 513

typedef struct entry {
  struct entry *next;
  uint32_t id;
  int fd;
  bool dead;
  /* What a consent check must carry to be answered here (set by armConsent). */
  bool armed;
  bool controlling;
  struct sockaddr_in remote;
  uint8_t username[MAX_USERNAME];
  size_t username_length;
  SHA_CTX inner;
  SHA_CTX outer;
  double tokens;
  struct timespec refilled;
} entry_t;

typedef struct item {
  struct item *next;
  uint32_t id;
  uint16_t port;
  bool ipv6;
  char host[INET6_ADDRSTRLEN];
  size_t length;
  uint8_t data[];
} item_t;

typedef struct {
  napi_env env;
  pthread_t thread;
  bool running;
  pthread_mutex_t lock;
  int epoll_fd;
  int wake_fd;
  atomic_bool stopping;
  atomic_int pending;
  napi_threadsafe_function deliver;
  /* The JavaScript function datagrams go to; a later startReceiving in the same environment (a
   * reloaded module) replaces it. Used on the main thread only. */
  napi_ref deliver_function;
  entry_t *entries;
  entry_t *graveyard;
  uint32_t next_id;
  uint64_t answered;
  /* The thread's read buffers. */
  struct mmsghdr messages[READ_BATCH];
  struct iovec vectors[READ_BATCH];
  struct sockaddr_storage from[READ_BATCH];
  uint8_t buffers[READ_BATCH][READ_BYTES];
} receiver_t;

static pthread_mutex_t owner_lock = PTHREAD_MUTEX_INITIALIZER;
static receiver_t *owner;

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void make_crc_table(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
}

static uint32_t crc32_of(const uint8_t *data, size_t length) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < length; i++) c = crc_table[(c ^ data[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

static uint16_t read16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static uint32_t read32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static void write16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static void write32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static void hmac_sha1(const entry_t *e, const uint8_t *first, size_t first_length,
                      const uint8_t *rest, size_t rest_length, uint8_t out[SHA_DIGEST_LENGTH]) {
  SHA_CTX sha = e->inner;
  SHA1_Update(&sha, first, first_length);
  if (rest_length > 0) SHA1_Update(&sha, rest, rest_length);
  uint8_t digest[SHA_DIGEST_LENGTH];
  SHA1_Final(digest, &sha);
  sha = e->outer;
  SHA1_Update(&sha, digest, sizeof(digest));
  SHA1_Final(out, &sha);
}

/* Takes one token of the socket's answer budget, refilled with the monotonic clock. */
static bool take_token(entry_t *e) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double elapsed = (double)(now.tv_sec - e->refilled.tv_sec) +
                   (double)(now.tv_nsec - e->refilled.tv_nsec) / 1e9;
  e->refilled = now;
  if (elapsed > 0) e->tokens += elapsed * ANSWERS_PER_SECOND;
  if (e->tokens > ANSWER_BURST) e->tokens = ANSWER_BURST;
  if (e->tokens < 1) return false;
  e->tokens -= 1;
  return true;
}

/*
 * Answers `request` when it is a consent check the socket is armed for: an IPv4 binding request
 * from the armed remote address, for the armed username, claiming the role opposite ours, whose
 * MESSAGE-INTEGRITY verifies (and nothing but FINGERPRINT after it). The checks are
 * `BindingResponder.answer`'s. False leaves the datagram to JavaScript.
 */
static bool answer_consent(receiver_t *r, entry_t *e, const uint8_t *request, size_t length,
                           const struct sockaddr_storage *from) {
  if (!e->armed || from->ss_family != AF_INET) return false;
  const struct sockaddr_in *v4 = (const struct sockaddr_in *)from;
  if (v4->sin_addr.s_addr != e->remote.sin_addr.s_addr || v4->sin_port != e->remote.sin_port)
    return false;
  if (length < STUN_HEADER || length > MAX_REQUEST_BYTES || (length & 3) != 0) return false;
  if (read16(request) != BINDING_REQUEST || read32(request + 4) != MAGIC_COOKIE ||
      read16(request + 2) != length - STUN_HEADER)
    return false;

  size_t username_at = 0, username_bytes = 0, integrity_at = 0;
  bool has_username = false, has_integrity = false, controlled = false, controlling = false;
  for (size_t at = STUN_HEADER; at < length;) {
    if (at + 4 > length) return false;
    uint16_t type = read16(request + at);
    uint16_t bytes = read16(request + at + 2);
    size_t next = at + 4 + (((size_t)bytes + 3) & ~(size_t)3);
    if (next > length) return false;
    if (has_integrity) {
      /* Only FINGERPRINT may follow MESSAGE-INTEGRITY, and it ends the message. */
      if (type != ATTR_FINGERPRINT || bytes != 4 || next != length) return false;
    } else if (type == ATTR_USERNAME) {
      has_username = true;
      username_at = at + 4;
      username_bytes = bytes;
    } else if (type == ATTR_MESSAGE_INTEGRITY) {
      if (bytes != 20) return false;
      has_integrity = true;
      integrity_at = at;
    } else if (type == ATTR_ICE_CONTROLLED) {
      controlled = true;
    } else if (type == ATTR_ICE_CONTROLLING) {
      controlling = true;
    } else if (type == ATTR_FINGERPRINT) {
      return false;
    }
    at = next;
  }
  if (!has_username || !has_integrity) return false;
  /* The sender must claim the other role; a claim to ours is a role conflict for werift. */
  if (e->controlling ? (!controlled || controlling) : (!controlling || controlled)) return false;
  if (username_bytes != e->username_length ||
      memcmp(request + username_at, e->username, username_bytes) != 0)
    return false;

  /* The MAC covers the message up to MESSAGE-INTEGRITY, with a length that ends after it. */
  uint8_t header[STUN_HEADER];
  memcpy(header, request, STUN_HEADER);
  write16(header + 2, (uint16_t)(integrity_at - STUN_HEADER + 24));
  uint8_t mac[SHA_DIGEST_LENGTH];
  hmac_sha1(e, header, STUN_HEADER, request + STUN_HEADER, integrity_at - STUN_HEADER, mac);
  if (CRYPTO_memcmp(mac, request + integrity_at + 4, SHA_DIGEST_LENGTH) != 0) return false;
  if (!take_token(e)) return false;

  /* Success: XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY, FINGERPRINT (64 bytes). */
  uint8_t out[64];
  write16(out, BINDING_SUCCESS);
  write16(out + 2, 12 + 24);
  memcpy(out + 4, request + 4, 16); /* magic cookie and transaction id */
  write16(out + 20, ATTR_XOR_MAPPED_ADDRESS);
  write16(out + 22, 8);
  out[24] = 0;
  out[25] = 1; /* IPv4 */
  write16(out + 26, (uint16_t)(ntohs(v4->sin_port) ^ (MAGIC_COOKIE >> 16)));
  write32(out + 28, ntohl(v4->sin_addr.s_addr) ^ MAGIC_COOKIE);
  write16(out + 32, ATTR_MESSAGE_INTEGRITY);
  write16(out + 34, 20);
  hmac_sha1(e, out, 32, NULL, 0, out + 36);
  write16(out + 2, 12 + 24 + 8);
  write16(out + 56, ATTR_FINGERPRINT);
  write16(out + 58, 4);
  write32(out + 60, crc32_of(out, 56) ^ FINGERPRINT_XOR);
  ssize_t sent;
  do {
    sent = sendto(e->fd, out, sizeof(out), MSG_DONTWAIT, (const struct sockaddr *)v4, sizeof(*v4));
  } while (sent < 0 && errno == EINTR);
  r->answered++;
  return true;
}

/* Reads what `e`'s socket holds (up to READS_PER_WAKE): answered here, or queued on `batch`. */
static void read_socket(receiver_t *r, entry_t *e, item_t **batch, item_t **tail) {
  for (int round = 0; round < READS_PER_WAKE / READ_BATCH; round++) {
    for (int i = 0; i < READ_BATCH; i++) {
      r->vectors[i].iov_base = r->buffers[i];
      r->vectors[i].iov_len = READ_BYTES;
      memset(&r->messages[i].msg_hdr, 0, sizeof(r->messages[i].msg_hdr));
      r->messages[i].msg_hdr.msg_iov = &r->vectors[i];
      r->messages[i].msg_hdr.msg_iovlen = 1;
      r->messages[i].msg_hdr.msg_name = &r->from[i];
      r->messages[i].msg_hdr.msg_namelen = sizeof(r->from[i]);
    }
    int count = recvmmsg(e->fd, r->messages, READ_BATCH, MSG_DONTWAIT, NULL);
    if (count <= 0) return;
    for (int i = 0; i < count; i++) {
      size_t length = r->messages[i].msg_len;
      if (r->messages[i].msg_hdr.msg_flags & MSG_TRUNC) continue;
      if (answer_consent(r, e, r->buffers[i], length, &r->from[i])) continue;
      if (atomic_load(&r->pending) >= MAX_PENDING) continue;
      item_t *item = malloc(sizeof(item_t) + length);
      if (!item) continue;
      item->next = NULL;
      item->id = e->id;
      item->length = length;
      memcpy(item->data, r->buffers[i], length);
      const struct sockaddr_storage *from = &r->from[i];
      if (from->ss_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)from;
        item->ipv6 = true;
        item->port = ntohs(v6->sin6_port);
        inet_ntop(AF_INET6, &v6->sin6_addr, item->host, sizeof(item->host));
      } else {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)from;
        item->ipv6 = false;
        item->port = ntohs(v4->sin_port);
        inet_ntop(AF_INET, &v4->sin_addr, item->host, sizeof(item->host));
      }
      atomic_fetch_add(&r->pending, 1);
      if (*tail) (*tail)->next = item;
      else *batch = item;
      *tail = item;
    }
    if (count < READ_BATCH) return;
  }
}

static void free_items(receiver_t *r, item_t *item) {
  while (item) {
    item_t *next = item->next;
    if (r) atomic_fetch_sub(&r->pending, 1);
    free(item);
    item = next;
  }
}

static void free_graveyard(receiver_t *r) {
  while (r->graveyard) {
    entry_t *next = r->graveyard->next;
    OPENSSL_cleanse(r->graveyard, sizeof(*r->graveyard));
    free(r->graveyard);
    r->graveyard = next;
  }
}

static void *run(void *argument) {
  receiver_t *r = argument;
  struct epoll_event events[64];
  for (;;) {
    int count = epoll_wait(r->epoll_fd, events, 64, -1);
    if (count < 0 && errno != EINTR) break;
    if (atomic_load(&r->stopping)) break;
    item_t *batch = NULL, *tail = NULL;
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < count; i++) {
      entry_t *e = events[i].data.ptr;
      if (!e) {
        uint64_t drained;
        if (read(r->wake_fd, &drained, sizeof(drained)) < 0) continue;
        continue;
      }
      if (!e->dead) read_socket(r, e, &batch, &tail);
    }
    /* No event returned from here on can name an entry unwatched before this point. */
    free_graveyard(r);
    pthread_mutex_unlock(&r->lock);
    if (batch && napi_call_threadsafe_function(r->deliver, batch, napi_tsfn_nonblocking) != napi_ok)
      free_items(r, batch);
  }
  return NULL;
}

/* On the main thread: each queued datagram to deliver(id, datagram, host, port, ipv6). */
static void call_deliver(napi_env env, napi_value unused, void *context, void *data) {
  (void)unused;
  receiver_t *r = context;
  item_t *item = data;
  if (!env) {
    free_items(r, item);
    return;
  }
  napi_value undefined, deliver;
  if (napi_get_undefined(env, &undefined) != napi_ok ||
      napi_get_reference_value(env, r->deliver_function, &deliver) != napi_ok || !deliver) {
    free_items(r, item);
    return;
  }
  while (item) {
    item_t *next = item->next;
    napi_value argv[5];
    void *copy;
    bool ok = napi_create_uint32(env, item->id, &argv[0]) == napi_ok &&
              napi_create_buffer_copy(env, item->length, item->data, &copy, &argv[1]) == napi_ok &&
              napi_create_string_utf8(env, item->host, NAPI_AUTO_LENGTH, &argv[2]) == napi_ok &&
              napi_create_uint32(env, item->port, &argv[3]) == napi_ok &&
              napi_get_boolean(env, item->ipv6, &argv[4]) == napi_ok;
    atomic_fetch_sub(&r->pending, 1);
    free(item);
    item = next;
    /* A throw from a listener is uncaught, as from libuv's read: the rest of the batch is lost. */
    if (!ok || napi_call_function(env, undefined, deliver, 5, argv, NULL) != napi_ok) {
      free_items(r, item);
      return;
    }
  }
}

static void stop_thread(receiver_t *r) {
  if (!r->running) return;
  r->running = false;
  atomic_store(&r->stopping, true);
  uint64_t one = 1;
  if (write(r->wake_fd, &one, sizeof(one)) < 0) {
    /* An eventfd write fails only when its counter is full: the thread is awake anyway. */
  }
  pthread_join(r->thread, NULL);
}

/* The thread-safe function is gone (its environment is ending): stop the thread, free it all. */
static void finalize_receiver(napi_env env, void *data, void *hint) {
  (void)hint;
  receiver_t *r = data;
  stop_thread(r);
  if (r->deliver_function) napi_delete_reference(env, r->deliver_function);
  pthread_mutex_lock(&r->lock);
  while (r->entries) {
    entry_t *next = r->entries->next;
    OPENSSL_cleanse(r->entries, sizeof(*r->entries));
    free(r->entries);
    r->entries = next;
  }
  free_graveyard(r);
  pthread_mutex_unlock(&r->lock);
  close(r->epoll_fd);
  close(r->wake_fd);
  pthread_mutex_destroy(&r->lock);
  pthread_mutex_lock(&owner_lock);
  if (owner == r) owner = NULL;
  pthread_mutex_unlock(&owner_lock);
  free(r);
}

/* The receiver this environment started, or NULL (with an Error thrown) when it has none. */
static receiver_t *own_receiver(napi_env env) {
  pthread_mutex_lock(&owner_lock);
  receiver_t *r = owner && owner->env == env ? owner : NULL;
  pthread_mutex_unlock(&owner_lock);
  if (!r) napi_throw_error(env, NULL, "startReceiving was not called in this environment");
  return r;
}

/* startReceiving(deliver) → true when this environment now owns the receive thread. */
static napi_value start_receiving(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_args(env, info, 1, argv, "startReceiving(deliver)")) return NULL;
  napi_valuetype type;
  CHECK(napi_typeof(env, argv[0], &type));
  if (type != napi_function) return throw_type(env, "deliver must be a function");
  napi_value result;
  pthread_mutex_lock(&owner_lock);
  receiver_t *current = owner;
  pthread_mutex_unlock(&owner_lock);
  if (current) {
    /* Only the owner's environment; there, the newest function takes the datagrams. */
    bool ours = current->env == env;
    if (ours) {
      napi_ref replacement;
      CHECK(napi_create_reference(env, argv[0], 1, &replacement));
      napi_delete_reference(env, current->deliver_function);
      current->deliver_function = replacement;
    }
    CHECK(napi_get_boolean(env, ours, &result));
    return result;
  }
  pthread_once(&crc_once, make_crc_table);

  receiver_t *r = calloc(1, sizeof(receiver_t));
  if (!r) return throw_range(env, "out of memory");
  r->env = env;
  r->next_id = 1;
  r->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  r->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  struct epoll_event wake = {.events = EPOLLIN, .data.ptr = NULL};
  if (r->epoll_fd < 0 || r->wake_fd < 0 ||
      epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, r->wake_fd, &wake) != 0) {
    if (r->epoll_fd >= 0) close(r->epoll_fd);
    if (r->wake_fd >= 0) close(r->wake_fd);
    free(r);
    return throw_range(env, "epoll is not available");
  }
  pthread_mutex_init(&r->lock, NULL);
  if (napi_create_reference(env, argv[0], 1, &r->deliver_function) != napi_ok) {
    close(r->epoll_fd);
    close(r->wake_fd);
    pthread_mutex_destroy(&r->lock);
    free(r);
    return throw_range(env, "could not keep the deliver function");
  }
  napi_value name;
  CHECK(napi_create_string_utf8(env, "sfu-receive-thread", NAPI_AUTO_LENGTH, &name));
  if (napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, r, finalize_receiver, r,
                                      call_deliver,
                                      &r->deliver) != napi_ok) {
    napi_delete_reference(env, r->deliver_function);
    close(r->epoll_fd);
    close(r->wake_fd);
    pthread_mutex_destroy(&r->lock);
    free(r);
    return throw_range(env, "could not create the thread-safe function");
  }
  if (pthread_create(&r->thread, NULL, run, r) != 0) {
    /* Its finalizer frees `r`. */
    napi_release_threadsafe_function(r->deliver, napi_tsfn_abort);
    return throw_range(env, "could not start the receive thread");
  }
  r->running = true;
  /* From now on the thread-safe function's finalizer owns `r`; it keeps no process alive. */
  napi_unref_threadsafe_function(env, r->deliver);
  pthread_mutex_lock(&owner_lock);
  owner = r;
  pthread_mutex_unlock(&owner_lock);
  CHECK(napi_get_boolean(env, true, &result));
  return result;
}

/* On the main thread with r->lock held. */
static entry_t *find_entry(receiver_t *r, uint32_t id) {
  for (entry_t *e = r->entries; e; e = e->next)
    if (e->id == id) return e;
  return NULL;
}

/* watchSocket(fd) → id: the thread reads this UDP socket from now on (libuv must not). */
static napi_value watch_socket(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_args(env, info, 1, argv, "watchSocket(fd)")) return NULL;
  receiver_t *r = own_receiver(env);
  if (!r) return NULL;
  int32_t fd;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok) return throw_type(env, "fd must be a number");
  int socket_type = 0;
  socklen_t type_length = sizeof(socket_type);
  if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &socket_type, &type_length) != 0 ||
      socket_type != SOCK_DGRAM)
    return throw_range(env, "fd is not a UDP socket");
  entry_t *e = calloc(1, sizeof(entry_t));
  if (!e) return throw_range(env, "out of memory");
  e->fd = fd;
  pthread_mutex_lock(&r->lock);
  e->id = r->next_id++;
  struct epoll_event event = {.events = EPOLLIN, .data.ptr = e};
  if (epoll_ctl(r->epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
    pthread_mutex_unlock(&r->lock);
    free(e);
    return throw_range(env, "the socket could not be watched (watched already?)");
  }
  e->next = r->entries;
  r->entries = e;
  uint32_t id = e->id;
  pthread_mutex_unlock(&r->lock);
  napi_value result;
  CHECK(napi_create_uint32(env, id, &result));
  return result;
}

/* The arguments of a call on one watched socket (id first), and this environment's receiver. */
static receiver_t *socket_call(napi_env env, napi_callback_info info, size_t count, napi_value *argv,
                               const char *usage, uint32_t *id) {
  if (!get_args(env, info, count, argv, usage)) return NULL;
  receiver_t *r = own_receiver(env);
  if (!r) return NULL;
  if (napi_get_value_uint32(env, argv[0], id) != napi_ok) {
    throw_type(env, "id must be a number");
    return NULL;
  }
  return r;
}

/*
 * unwatchSocket(id) → whether it was watched. Call it before the descriptor is closed: when it
 * returns, the thread has let go of it.
 */
static napi_value unwatch_socket(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  uint32_t id;
  receiver_t *r = socket_call(env, info, 1, argv, "unwatchSocket(id)", &id);
  if (!r) return NULL;
  pthread_mutex_lock(&r->lock);
  bool found = false;
  for (entry_t **link = &r->entries; *link; link = &(*link)->next) {
    entry_t *e = *link;
    if (e->id != id) continue;
    epoll_ctl(r->epoll_fd, EPOLL_CTL_DEL, e->fd, NULL);
    e->dead = true;
    *link = e->next;
    e->next = r->graveyard;
    r->graveyard = e;
    found = true;
    break;
  }
  pthread_mutex_unlock(&r->lock);
  napi_value result;
  CHECK(napi_get_boolean(env, found, &result));
  return result;
}

/*
 * armConsent(id, remote: sockaddr_in Buffer, username: Buffer, password: Buffer, controlling):
 * consent checks from `remote` for `username`, MACed with `password`, are answered by the thread.
 */
static napi_value arm_consent(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  uint32_t id;
  receiver_t *r =
      socket_call(env, info, 5, argv, "armConsent(id, remote, username, password, controlling)", &id);
  if (!r) return NULL;
  size_t remote_length, username_length, password_length;
  uint8_t *remote = buffer_arg(env, argv[1], &remote_length);
  if (!remote) return NULL;
  uint8_t *username = buffer_arg(env, argv[2], &username_length);
  if (!username) return NULL;
  uint8_t *password = buffer_arg(env, argv[3], &password_length);
  if (!password) return NULL;
  bool controlling;
  if (napi_get_value_bool(env, argv[4], &controlling) != napi_ok)
    return throw_type(env, "controlling must be a boolean");
  struct sockaddr_in address;
  if (remote_length != sizeof(address)) return throw_range(env, "remote must be an IPv4 sockaddr");
  memcpy(&address, remote, sizeof(address));
  if (address.sin_family != AF_INET) return throw_range(env, "remote must be an IPv4 sockaddr");
  if (username_length == 0 || username_length > MAX_USERNAME)
    return throw_range(env, "username must be 1–513 bytes");
  if (password_length > SHA1_BLOCK) return throw_range(env, "password must be at most 64 bytes");

  SHA_CTX inner, outer;
  hmac_sha1_pads(password, password_length, &inner, &outer);

  pthread_mutex_lock(&r->lock);
  entry_t *e = find_entry(r, id);
  if (e) {
    e->remote = address;
    memcpy(e->username, username, username_length);
    e->username_length = username_length;
    e->inner = inner;
    e->outer = outer;
    e->controlling = controlling;
    if (!e->armed) {
      e->tokens = ANSWER_BURST;
      clock_gettime(CLOCK_MONOTONIC, &e->refilled);
    }
    e->armed = true;
  }
  pthread_mutex_unlock(&r->lock);
  OPENSSL_cleanse(&inner, sizeof(inner));
  OPENSSL_cleanse(&outer, sizeof(outer));
  napi_value result;
  CHECK(napi_get_boolean(env, e != NULL, &result));
  return result;
}

/* disarmConsent(id): every consent check on the socket goes to JavaScript again. */
static napi_value disarm_consent(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  uint32_t id;
  receiver_t *r = socket_call(env, info, 1, argv, "disarmConsent(id)", &id);
  if (!r) return NULL;
  pthread_mutex_lock(&r->lock);
  entry_t *e = find_entry(r, id);
  if (e) e->armed = false;
  pthread_mutex_unlock(&r->lock);
  return NULL;
}

/* consentAnswers() → how many consent checks the thread has answered (for tests and benches). */
static napi_value consent_answers(napi_env env, napi_callback_info info) {
  (void)info;
  receiver_t *r = own_receiver(env);
  if (!r) return NULL;
  pthread_mutex_lock(&r->lock);
  double answered = (double)r->answered;
  pthread_mutex_unlock(&r->lock);
  napi_value result;
  CHECK(napi_create_double(env, answered, &result));
  return result;
}

napi_status define_receive_thread(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"startReceiving", NULL, start_receiving, NULL, NULL, NULL, napi_enumerable, NULL},
      {"watchSocket", NULL, watch_socket, NULL, NULL, NULL, napi_enumerable, NULL},
      {"unwatchSocket", NULL, unwatch_socket, NULL, NULL, NULL, napi_enumerable, NULL},
      {"armConsent", NULL, arm_consent, NULL, NULL, NULL, napi_enumerable, NULL},
      {"disarmConsent", NULL, disarm_consent, NULL, NULL, NULL, napi_enumerable, NULL},
      {"consentAnswers", NULL, consent_answers, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  return napi_define_properties(env, exports, sizeof(properties) / sizeof(properties[0]),
                                properties);
}
