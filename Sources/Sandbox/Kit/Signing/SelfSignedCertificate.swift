internal import CCrypto
import Foundation

/// A self-signed X.509 certificate (`X509`) for a `SigningKey`, freed in `deinit`.
final class SelfSignedCertificate {
    let pointer: OpaquePointer
    /// The certificate in DER.
    let der: Data

    /// Makes a v3 certificate with subject and issuer `CN=commonName`, valid from one day
    /// before `now` to ten years after it, signed by `key` with SHA-256.
    init(key: SigningKey, commonName: String, now: Date) throws {
        guard let certificate = X509_new() else { throw openSSLFailure("X509_new") }
        var keep = false
        defer { if !keep { X509_free(certificate) } }

        guard X509_set_version(certificate, 2) == 1 else { throw openSSLFailure("X509_set_version") }
        var serial = Int.random(in: 1...Int.max)
        serial |= 1 << 40  // always a long, positive serial
        guard ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial) == 1 else { throw openSSLFailure("ASN1_INTEGER_set") }
        var base = time_t(now.timeIntervalSince1970.rounded(.down))
        guard X509_time_adj_ex(X509_getm_notBefore(certificate), -1, 0, &base) != nil,
              X509_time_adj_ex(X509_getm_notAfter(certificate), 3652, 0, &base) != nil else {
            throw openSSLFailure("X509_time_adj_ex")
        }
        guard X509_set_pubkey(certificate, key.pointer) == 1 else { throw openSSLFailure("X509_set_pubkey") }
        guard let name = X509_get_subject_name(certificate),
              X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1,
              X509_set_issuer_name(certificate, name) == 1 else {
            throw openSSLFailure("X509_NAME_add_entry_by_txt")
        }
        guard X509_sign(certificate, key.pointer, EVP_sha256()) > 0 else { throw openSSLFailure("X509_sign") }

        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw openSSLFailure("i2d_X509") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else { throw openSSLFailure("i2d_X509") }
        der = Data(bytes)
        pointer = certificate
        keep = true
    }

    deinit { X509_free(pointer) }
}

@available(*, unavailable)
extension SelfSignedCertificate: Sendable {}
