internal import CCrypto
import Foundation

/// A server certificate parsed from PEM, owning its OpenSSL `X509`.
///
/// Gives the identity facts a transcript records: the leaf's SHA-256, its
/// SubjectPublicKeyInfo pin and its issuer. Not `Sendable`: it owns a C object
/// and stays on the thread that made it.
final class ServerCertificate {
    private let x509: OpaquePointer

    /// Parses one PEM certificate; nil when it is not one.
    init?(pem: String) {
        let bytes = Array(pem.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
        guard let parsed else { return nil }
        x509 = parsed
    }

    /// Shares a certificate another owner holds (one more reference, released in `deinit`).
    init(retaining x509: OpaquePointer) {
        X509_up_ref(x509)
        self.x509 = x509
    }

    deinit { X509_free(x509) }

    /// The base64 of a PEM certificate's DER: its body without the armour lines.
    static func base64DER(pem: String) -> String {
        pem.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }

    /// SHA-256 of the certificate's DER, lowercase hex.
    var sha256Hex: String? {
        Self.der { i2d_X509(x509, $0) }.map { Self.sha256($0).map { String(format: "%02x", $0) }.joined() }
    }

    /// SHA-256 of the DER SubjectPublicKeyInfo, as `sha256//BASE64` (the form libcurl's pinning takes).
    var spkiPin: String? {
        guard let key = X509_get_X509_PUBKEY(x509) else { return nil }
        return Self.der { i2d_X509_PUBKEY(key, $0) }.map { "sha256//" + Data(Self.sha256($0)).base64EncodedString() }
    }

    /// The issuer's distinguished name, one line (`/C=US/O=…/CN=…`).
    var issuer: String? {
        guard let name = X509_get_issuer_name(x509) else { return nil }
        var buffer = [CChar](repeating: 0, count: 512)
        guard X509_NAME_oneline(name, &buffer, Int32(buffer.count)) != nil else { return nil }
        return String(nulTerminated: buffer)
    }

    private static func der(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        return written == length ? bytes : nil
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = bytes.withUnsafeBufferPointer { SHA256($0.baseAddress, $0.count, &digest) }
        return digest
    }
}
