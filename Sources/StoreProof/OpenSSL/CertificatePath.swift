internal import CCrypto

/// OpenSSL's own X.509 path validation against a single injected root.
///
/// growcert checks each rule explicitly first (so refusals name the rule);
/// this second pass adds what those checks do not spell out: CA flags, path
/// lengths, key usage and unhandled critical extensions. The store holds the
/// injected root only and never loads the system trust store.
enum CertificatePath {
    /// nil when `leaf` chains through `intermediates` to `root` at `epochSeconds`, else OpenSSL's reason.
    static func validate(leaf: X509Certificate, intermediates: [X509Certificate], root: X509Certificate, atEpochSeconds epochSeconds: Int64) -> String? {
        defer { ERR_clear_error() }
        guard let store = X509_STORE_new() else { return "OpenSSL could not create a certificate store" }
        defer { X509_STORE_free(store) }
        guard X509_STORE_add_cert(store, root.handle) == 1 else { return "OpenSSL refused the trusted root" }
        guard let untrusted = OPENSSL_sk_new_null() else { return "OpenSSL could not allocate a stack" }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in intermediates {
            guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.handle)) > 0 else { return "OpenSSL could not allocate a stack" }
        }
        guard let context = X509_STORE_CTX_new() else { return "OpenSSL could not create a verification context" }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.handle, untrusted) == 1 else { return "OpenSSL could not start verification" }
        // Validity is judged at the transaction's signedDate, never at today's date.
        X509_STORE_CTX_set_time(context, 0, time_t(epochSeconds))
        if X509_verify_cert(context) == 1 { return nil }
        let code = X509_STORE_CTX_get_error(context)
        guard let text = X509_verify_cert_error_string(Int(code)) else { return "OpenSSL error \(code)" }
        return String(cString: text)
    }
}
