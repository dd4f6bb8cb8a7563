#ifndef CLAZYLIBRARIES_H
#define CLAZYLIBRARIES_H

// libpq, libcurl and libmicrohttpd are not linked into growcert: this target defines the functions growcert calls
// (with the names and prototypes of their own headers) and opens each library with dlopen on first use, so a command
// loads only the libraries it uses (a one-note write loads neither).
//
// Each load check below opens its library (once per process) and returns NULL when it is ready, or a sentence naming
// the library, dlerror() and the Debian package it needs. Swift calls it before the first use, so a missing library
// is a clear error; a function reached without the check loads the library itself and aborts with that sentence
// only if it cannot.

/// libpq.so.5, for PostgreSQL stores.
const char *lazylib_load_libpq(void);
/// libcurl.so.4, for requests over HTTP.
const char *lazylib_load_libcurl(void);
/// libmicrohttpd.so.12, for the emulator and the web view.
const char *lazylib_load_libmicrohttpd(void);

/// Test seam: opens `soname` and looks up `symbol` as the loaders do, then closes it again. Returns NULL when both
/// were found, else the sentence a loader would give (malloc'd: the caller frees it).
char *lazylib_probe(const char *soname, const char *symbol, const char *package, const char *purpose);

#endif
