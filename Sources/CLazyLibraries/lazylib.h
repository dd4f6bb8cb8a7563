#ifndef LAZYLIB_H
#define LAZYLIB_H

#include <pthread.h>
#include <stddef.h>

/// One library opened on first use: its soname, who needs it (for the error), the symbols growcert calls and where
/// their addresses go. One static instance per library (pq.c, curl.c, mhd.c).
struct lazylib {
    const char *soname;            // "libpq.so.5"
    const char *package;           // the Debian package that installs it: "libpq5"
    const char *purpose;           // what needs it, a plural subject: "PostgreSQL stores"
    const char *const *names;      // the symbols growcert calls
    void **slots;                  // their addresses, once loaded
    size_t count;
    pthread_once_t once;
    void (*load)(void);            // the library's pthread_once routine: lazylib_open on this instance
    void *handle;                  // the dlopen handle, once loaded (never closed)
    char failure[512];             // empty when loaded
};

/// Opens the library and looks up every symbol; on failure leaves nothing open and the sentence in `failure`.
void lazylib_open(struct lazylib *lib);
/// Loads the library once per process; NULL when loaded, else why not.
const char *lazylib_failure(struct lazylib *lib);
/// The address of symbol `index`, loading the library once; aborts with the failure sentence when it cannot load.
void *lazylib_symbol(struct lazylib *lib, size_t index);

// X-macro helpers: each library file lists its functions as F(return type, name, (parameters), (arguments)) and, for
// those returning void, V(name, (parameters), (arguments)); S(name) is a symbol looked up but defined by no stub
// (the variadic ones, which only the typed wrappers call).
#define LAZYLIB_INDEX(ret, name, params, args) lazylib_index_##name,
#define LAZYLIB_INDEX_VOID(name, params, args) lazylib_index_##name,
#define LAZYLIB_INDEX_SYMBOL(name) lazylib_index_##name,
#define LAZYLIB_NAME(ret, name, params, args) #name,
#define LAZYLIB_NAME_VOID(name, params, args) #name,
#define LAZYLIB_NAME_SYMBOL(name) #name,
#define LAZYLIB_NONE(...)

/// The loaded address of `name`, typed as its header declares it.
#define LAZYLIB_FUNCTION(lib, name) ((__typeof__(name) *)lazylib_symbol(&(lib), lazylib_index_##name))

// The stubs: defined with the header's name and parameters (so the compiler checks them against its prototype),
// each forwarding to the library's own function.
#define LAZYLIB_STUB(ret, name, params, args) ret name params { return LAZYLIB_FUNCTION(library, name) args; }
#define LAZYLIB_STUB_VOID(name, params, args) void name params { LAZYLIB_FUNCTION(library, name) args; }

/// Declares this file's `library` from its function list `LIST(F, V, S)`.
#define LAZYLIB_DEFINE(LIST, so, pkg, why) \
    enum { LIST(LAZYLIB_INDEX, LAZYLIB_INDEX_VOID, LAZYLIB_INDEX_SYMBOL) lazylib_count }; \
    static const char *const lazylib_names[] = { LIST(LAZYLIB_NAME, LAZYLIB_NAME_VOID, LAZYLIB_NAME_SYMBOL) }; \
    static void *lazylib_slots[lazylib_count]; \
    static void lazylib_load(void); \
    static struct lazylib library = { \
        .soname = so, .package = pkg, .purpose = why, .names = lazylib_names, .slots = lazylib_slots, \
        .count = lazylib_count, .once = PTHREAD_ONCE_INIT, .load = lazylib_load, \
    }; \
    static void lazylib_load(void) { lazylib_open(&library); } \
    LIST(LAZYLIB_STUB, LAZYLIB_STUB_VOID, LAZYLIB_NONE)

#endif
