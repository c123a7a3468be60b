/* The receive thread's functions (receive-thread.c), added to the addon's exports. */
#ifndef SFU_RECEIVE_THREAD_H
#define SFU_RECEIVE_THREAD_H

#include <node_api.h>

napi_status define_receive_thread(napi_env env, napi_value exports);

#endif
