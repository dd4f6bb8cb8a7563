internal import CCrypto

/// An X.509 certificate parsed by OpenSSL; owns its `X509*` and frees it in `deinit`.
///
/// Not `Sendable`: the handle is used by one verification on one thread.
final class X509Certificate {
    let handle: OpaquePointer
    let der: [UInt8]

    /// Parses exactly one DER certificate; nil when the bytes are not one, or carry trailing data.
    init?(der: [UInt8]) {
        guard !der.isEmpty else { return nil }
        var parsed: OpaquePointer?
        let consumed: Int = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return -1 }
            var cursor: UnsafePointer<UInt8>? = base
            parsed = d2i_X509(nil, &cursor, buffer.count)
            guard let cursor else { return -1 }
            return cursor - base
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        guard consumed == der.count else {
            X509_free(parsed)
            return nil
        }
        handle = parsed
        self.der = der
    }

    deinit { X509_free(handle) }

    /// The subject on one line, e.g. `CN=StoreKit Testing in Xcode, O=StoreKit Testing in Xcode`.
    var subjectLine: String { oneLine(Self.printName(X509_get_subject_name(handle)), limit: 4096) }

    /// The subject's common name when there is exactly one, else nil.
    var commonName: String? {
        guard let name = X509_get_subject_name(handle) else { return nil }
        let first = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard first >= 0, X509_NAME_get_index_by_NID(name, NID_commonName, first) < 0,
            let entry = X509_NAME_get_entry(name, first), let data = X509_NAME_ENTRY_get_data(entry)
        else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else {
            ERR_clear_error()
            return nil
        }
        defer { CRYPTO_free(utf8, nil, 0) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    /// The public key, owned by the certificate (valid while `self` lives).
    var publicKey: OpaquePointer? { X509_get0_pubkey(handle) }

    /// Whether the public key is an EC key on P-256, the only curve ES256 allows.
    var hasP256Key: Bool {
        guard let key = publicKey, EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return false
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    /// Whether the certificate carries an extension with this dotted OID (critical or not).
    func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(handle, object, -1) >= 0
    }

    /// Whether `issuer` named this certificate's issuer and signed it with its key.
    func isIssued(by issuer: X509Certificate) -> Bool {
        guard X509_NAME_cmp(X509_get_issuer_name(handle), X509_get_subject_name(issuer.handle)) == 0,
            let key = issuer.publicKey
        else { return false }
        let verified = X509_verify(handle, key) == 1
        if !verified { ERR_clear_error() }
        return verified
    }

    /// Whether the certificate is valid at `seconds` since the epoch (notBefore ≤ t < notAfter, as OpenSSL judges it).
    func isValid(atEpochSeconds seconds: Int64) -> Bool {
        var t = time_t(seconds)
        guard let notBefore = X509_get0_notBefore(handle), let notAfter = X509_get0_notAfter(handle) else { return false }
        // X509_cmp_time answers -1 when the certificate time is at or before t, 1 when after, 0 on error.
        return X509_cmp_time(notBefore, &t) == -1 && X509_cmp_time(notAfter, &t) == 1
    }

    /// notBefore in RFC 3339 UTC, for messages.
    var notBeforeText: String { Self.timeText(X509_get0_notBefore(handle)) }

    /// notAfter in RFC 3339 UTC, for messages.
    var notAfterText: String { Self.timeText(X509_get0_notAfter(handle)) }

    private static func timeText(_ time: UnsafePointer<ASN1_TIME>?) -> String {
        guard let time else { return "unknown" }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else {
            ERR_clear_error()
            return "unknown"
        }
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// RFC 2253 escaping of specials and control characters, UTF-8 output, fields in certificate order
    /// separated by ", ": the name can never break a line or be mistaken for another.
    private static let nameFlags: UInt = UInt(ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT
        | ASN1_STRFLGS_DUMP_UNKNOWN | ASN1_STRFLGS_DUMP_DER) | UInt(XN_FLAG_SEP_CPLUS_SPC)

    private static func printName(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, nameFlags) >= 0 else {
            ERR_clear_error()
            return ""
        }
        let pending = Int(BIO_ctrl_pending(bio))
        guard pending > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = BIO_read(bio, &bytes, Int32(pending))
        guard read > 0 else { return "" }
        return String(decoding: bytes.prefix(Int(read)), as: UTF8.self)
    }
}

@available(*, unavailable)
extension X509Certificate: Sendable {}
