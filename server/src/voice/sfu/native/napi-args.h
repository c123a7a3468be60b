/*
 * Argument helpers shared by the SFU addon's source files: every function checks what JavaScript
 * passed and throws a TypeError/RangeError instead of reading a wrong value.
 */
#ifndef SFU_NAPI_ARGS_H
#define SFU_NAPI_ARGS_H

#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    if ((call) != napi_ok) return NULL;                                                          \
  } while (0)

static inline napi_value throw_type(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static inline napi_value throw_range(napi_env env, const char *message) {
  napi_throw_range_error(env, NULL, message);
  return NULL;
}

/* Reads `count` arguments into `argv`; false (with a TypeError naming the call) when fewer came. */
static inline bool get_args(napi_env env, napi_callback_info info, size_t count, napi_value *argv,
                     const char *usage) {
  size_t argc = count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return false;
  if (argc < count) {
    throw_type(env, usage);
    return false;
  }
  return true;
}

/* The bytes of a Buffer argument, or NULL (with a TypeError thrown) when it is not one. */
static inline uint8_t *buffer_arg(napi_env env, napi_value value, size_t *length) {
  bool is_buffer = false;
  void *data = NULL;
  if (napi_is_buffer(env, value, &is_buffer) != napi_ok || !is_buffer) {
    throw_type(env, "expected a Buffer");
    return NULL;
  }
  if (napi_get_buffer_info(env, value, &data, length) != napi_ok) return NULL;
  return data;
}

#endif
