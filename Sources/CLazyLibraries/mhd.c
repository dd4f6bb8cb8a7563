// libmicrohttpd, opened on first use: the functions the emulator's HTTP server calls, as microhttpd.h declares them.
#include "../CMHD/shim.h"
#include "lazylib.h"
#include "CLazyLibraries.h"

#define LIBMICROHTTPD_FUNCTIONS(F, V, S) \
    F(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *response, const char *header, const char *content), \
      (response, header, content)) \
    F(struct MHD_Response *, MHD_create_response_from_buffer, (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), \
      (size, buffer, mode)) \
    V(MHD_destroy_response, (struct MHD_Response *response), (response)) \
    F(int, MHD_get_connection_values, (struct MHD_Connection *connection, enum MHD_ValueKind kind, \
                                       MHD_KeyValueIterator iterator, void *iterator_cls), \
      (connection, kind, iterator, iterator_cls)) \
    F(const char *, MHD_lookup_connection_value, (struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key), \
      (connection, kind, key)) \
    F(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *connection, unsigned int status_code, \
                                            struct MHD_Response *response), \
      (connection, status_code, response)) \
    F(struct MHD_Daemon *, MHD_start_daemon_va, (unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, \
                                                 void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, va_list ap), \
      (flags, port, apc, apc_cls, dh, dh_cls, ap)) \
    V(MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon))

LAZYLIB_DEFINE(LIBMICROHTTPD_FUNCTIONS, "libmicrohttpd.so.12", "libmicrohttpd12", "the emulator and the web view")

const char *lazylib_load_libmicrohttpd(void) { return lazylib_failure(&library); }
