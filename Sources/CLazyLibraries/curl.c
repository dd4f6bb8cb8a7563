// libcurl, opened on first use: the functions the HTTP transport calls, as curl.h declares them, and CCurl's typed
// wrappers of the variadic curl_easy_setopt and curl_easy_getinfo (declared in CCurl's shim.h, which Swift imports).
#include "../CCurl/shim.h"
#include "lazylib.h"
#include "CLazyLibraries.h"

#define LIBCURL_FUNCTIONS(F, V, S) \
    V(curl_easy_cleanup, (CURL *curl), (curl)) \
    F(CURL *, curl_easy_init, (void), ()) \
    F(CURLcode, curl_easy_perform, (CURL *curl), (curl)) \
    V(curl_easy_reset, (CURL *curl), (curl)) \
    F(const char *, curl_easy_strerror, (CURLcode code), (code)) \
    F(CURLcode, curl_global_init, (long flags), (flags)) \
    F(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data), (list, data)) \
    V(curl_slist_free_all, (struct curl_slist *list), (list)) \
    S(curl_easy_setopt) \
    S(curl_easy_getinfo)

LAZYLIB_DEFINE(LIBCURL_FUNCTIONS, "libcurl.so.4", "libcurl4", "requests over HTTP")

const char *lazylib_load_libcurl(void) { return lazylib_failure(&library); }

// Each typed wrapper passes its one typed argument to the variadic function: nothing forwards a `...`.
#define SETOPT LAZYLIB_FUNCTION(library, curl_easy_setopt)
#define GETINFO LAZYLIB_FUNCTION(library, curl_easy_getinfo)

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return SETOPT(h, o, v); }
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, const void *v) { return SETOPT(h, o, v); }
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { return SETOPT(h, o, v); }
CURLcode ccurl_setopt_offset(CURL *h, CURLoption o, curl_off_t v) { return SETOPT(h, o, v); }
CURLcode ccurl_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return SETOPT(h, CURLOPT_WRITEFUNCTION, f); }
CURLcode ccurl_setopt_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return SETOPT(h, CURLOPT_HEADERFUNCTION, f); }
CURLcode ccurl_setopt_xferinfo(CURL *h, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return SETOPT(h, CURLOPT_XFERINFOFUNCTION, f);
}
CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v) { return GETINFO(h, i, v); }
CURLcode ccurl_getinfo_string(CURL *h, CURLINFO i, char **v) { return GETINFO(h, i, v); }
CURLcode ccurl_getinfo_certinfo(CURL *h, struct curl_certinfo **v) { return GETINFO(h, CURLINFO_CERTINFO, v); }
