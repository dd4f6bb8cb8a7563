internal import CCrypto
import Foundation

/// Re-validates a recorded server certificate chain on the machine that asks: what `verify` does with every exchange a
/// `live-hosted` label rests on.
///
/// The chain is the one the server presented (leaf first, DER), the name is the host the request asked for, and the
/// time is the exchange's own (so a chain that has expired since still validates as it did then). The trust anchors
/// are this machine's trust store (OpenSSL's default locations), never the recording machine's: a CA that an insider
/// trusted only on the QA machine (a private mount namespace, an edited bundle) is not trusted here.
package struct ServerChainTrust: Sendable {
    /// nil: this machine's trust store. A file of PEM CAs only through the test seam.
    let caFile: String?

    /// This machine's trust store.
    package init() { caFile = nil }

    /// Test seam, never reachable from the CLI: trust exactly the CAs in `caFile` (PEM).
    init(caFile: String) { self.caFile = caFile }

    /// Why `chain` does not validate for `host` at `epochSeconds` against this machine's trust store and `pins`; nil when it does.
    ///
    /// - Parameters:
    ///   - chain: the certificates' DER in base64, leaf first, as recorded.
    ///   - host: the host name (or IP literal) the request asked for.
    ///   - epochSeconds: the exchange's time.
    ///   - pins: `sha256//BASE64` public-key pins in force; empty when none. The leaf's key must match one (as libcurl
    ///     enforces them).
    ///   - recordedPin: the leaf's public key as recorded beside the chain (`sha256//…`); it must be the chain's leaf's.
    package func problem(chain: [String], host: String, atEpochSeconds epochSeconds: Int64, pins: [String], recordedPin: String? = nil) -> String? {
        defer { ERR_clear_error() }
        guard !chain.isEmpty else { return "it recorded no certificate chain" }
        var certificates: [OpaquePointer] = []
        defer { certificates.forEach { X509_free($0) } }
        for (index, text) in chain.enumerated() {
            guard let der = Data(base64Encoded: text), !der.isEmpty else { return "certificate \(index + 1) of its chain is not base64 DER" }
            let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
                var cursor = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return d2i_X509(nil, &cursor, raw.count)
            }
            guard let parsed else { return "certificate \(index + 1) of its chain is not an X.509 certificate" }
            certificates.append(parsed)
        }
        guard let store = X509_STORE_new() else { return "OpenSSL could not create a certificate store" }
        defer { X509_STORE_free(store) }
        if let caFile {
            guard X509_STORE_load_locations(store, caFile, nil) == 1 else { return "the trusted CA file could not be read" }
        } else {
            guard X509_STORE_set_default_paths(store) == 1 else { return "this machine's trust store could not be read" }
        }
        guard let untrusted = OPENSSL_sk_new_null() else { return "OpenSSL could not allocate a stack" }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in certificates.dropFirst() {
            guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate)) > 0 else { return "OpenSSL could not allocate a stack" }
        }
        guard let context = X509_STORE_CTX_new() else { return "OpenSSL could not create a verification context" }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, certificates[0], untrusted) == 1 else { return "OpenSSL could not start verification" }
        X509_STORE_CTX_set_time(context, 0, time_t(epochSeconds))
        guard let parameters = X509_STORE_CTX_get0_param(context) else { return "OpenSSL could not start verification" }
        X509_VERIFY_PARAM_set_purpose(parameters, X509_PURPOSE_SSL_SERVER)
        let named = PeerAddress(host) != nil
            ? X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
            : X509_VERIFY_PARAM_set1_host(parameters, host, 0)
        guard named == 1 else { return "its recorded host name '\(host)' cannot be checked" }
        if X509_verify_cert(context) != 1 {
            let code = X509_STORE_CTX_get_error(context)
            let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "OpenSSL error \(code)"
            return "its certificate chain does not validate on this machine for '\(host)': \(text)"
        }
        let leafPin = ServerCertificate(retaining: certificates[0]).spkiPin
        if let recordedPin, recordedPin != leafPin { return "its recorded public key \(recordedPin) is not its chain's leaf's (\(leafPin ?? "none"))" }
        if !pins.isEmpty {
            guard let leafPin, pins.contains(leafPin) else { return "its leaf certificate's public key matches none of the Sandbox pins" }
        }
        return nil
    }
}
