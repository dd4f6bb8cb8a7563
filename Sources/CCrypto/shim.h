// SHA-256 uses OpenSSL's own SHA256_Init/Update/Final (EvidenceModel's SHA256Hasher), which OpenSSL 3.0 marks
// deprecated in favour of EVP but keeps in every 3.x release: the first EVP digest of a process initialises OpenSSL's
// providers and reads openssl.cnf, about 0.8 ms, a tenth of a one-note write (docs/performance.md, cli-add). The
// define drops the deprecation attributes, which Swift would report as warnings, from this module's declarations only.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/ecdsa.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/bio.h>
#include <openssl/objects.h>
#include <openssl/asn1.h>
#include <openssl/ts.h>
#include <openssl/pkcs7.h>
