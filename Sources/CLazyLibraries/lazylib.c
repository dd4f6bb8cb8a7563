#include "lazylib.h"
#include "CLazyLibraries.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void describe(struct lazylib *lib, const char *why) {
    snprintf(lib->failure, sizeof lib->failure, "growcert could not load %s (%s): %s need the %s package",
             lib->soname, why ? why : "no reason given", lib->purpose, lib->package);
}

void lazylib_open(struct lazylib *lib) {
    // RTLD_LOCAL: its symbols stay out of the global scope, so they never stand in for this target's stubs.
    void *handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        describe(lib, dlerror());
        return;
    }
    for (size_t i = 0; i < lib->count; i++) {
        (void)dlerror();
        void *address = dlsym(handle, lib->names[i]);
        if (address == NULL) {
            describe(lib, dlerror());
            dlclose(handle);
            return;
        }
        lib->slots[i] = address;
    }
    lib->handle = handle;
}

const char *lazylib_failure(struct lazylib *lib) {
    pthread_once(&lib->once, lib->load);
    return lib->failure[0] == '\0' ? NULL : lib->failure;
}

void *lazylib_symbol(struct lazylib *lib, size_t index) {
    const char *failure = lazylib_failure(lib);
    if (failure != NULL) {
        fprintf(stderr, "%s\n", failure);
        abort();
    }
    return lib->slots[index];
}

char *lazylib_probe(const char *soname, const char *symbol, const char *package, const char *purpose) {
    const char *const names[] = { symbol };
    void *slots[1] = { NULL };
    struct lazylib lib = { .soname = soname, .package = package, .purpose = purpose, .names = names, .slots = slots,
                           .count = 1 };
    lazylib_open(&lib);
    if (lib.handle != NULL) {
        dlclose(lib.handle);
        return NULL;
    }
    return strdup(lib.failure);
}
