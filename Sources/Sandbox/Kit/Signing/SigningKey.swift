internal import CCrypto
import Foundation

/// An EC P-256 key pair (`EVP_PKEY`) that signs ES256, freed in `deinit`.
///
/// Signatures are JOSE-style: raw `r || s`, 32 bytes each, not DER.
final class SigningKey {
    let pointer: OpaquePointer

    /// Generates a fresh P-256 key.
    init() throws {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw openSSLFailure("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw openSSLFailure("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1 else {
            throw openSSLFailure("EVP_PKEY_CTX_set_ec_paramgen_curve_nid")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen(context, &key) == 1, let key else { throw openSSLFailure("EVP_PKEY_keygen") }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Signs `data` with ECDSA over SHA-256 and returns the 64-byte `r || s`.
    func sign(_ data: Data) throws -> Data {
        guard let context = EVP_MD_CTX_new() else { throw openSSLFailure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { throw openSSLFailure("EVP_DigestSignInit") }
        var der = [UInt8](repeating: 0, count: 80)
        var length = der.count
        let signed = data.withUnsafeBytes { raw in
            EVP_DigestSign(context, &der, &length, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
        guard signed == 1 else { throw openSSLFailure("EVP_DigestSign") }
        return try Self.rawSignature(fromDER: Array(der[0..<length]))
    }

    private static func rawSignature(fromDER der: [UInt8]) throws -> Data {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw openSSLFailure("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
        }
        guard written else { throw openSSLFailure("BN_bn2binpad") }
        return Data(raw)
    }
}

@available(*, unavailable)
extension SigningKey: Sendable {}
