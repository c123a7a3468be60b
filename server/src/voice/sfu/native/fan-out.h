/* The fan-out's functions (fan-out.c), added to the addon's exports. */
#ifndef SFU_FAN_OUT_H
#define SFU_FAN_OUT_H

#include <node_api.h>

napi_status define_fan_out(napi_env env, napi_value exports);

#endif
