#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call;
// these typed wrappers are the only additions. They are defined in CLazyLibraries, which opens libcurl on first use.
CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, const void *v);
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_setopt_offset(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *));
CURLcode ccurl_setopt_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *));
CURLcode ccurl_setopt_xferinfo(CURL *h, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode ccurl_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLcode ccurl_getinfo_certinfo(CURL *h, struct curl_certinfo **v);
