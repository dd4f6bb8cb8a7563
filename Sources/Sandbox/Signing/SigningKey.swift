import CCrypto
import Foundation

/// An EC P-256 key pair (`EVP_PKEY`) that signs and verifies ES256, freed in `deinit`.
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

    /// True when `signature` (64-byte `r || s`) is a valid ES256 signature of `data` by this key.
    func verify(_ signature: Data, of data: Data) -> Bool {
        guard signature.count == 64, let der = Self.derSignature(fromRaw: signature),
              let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context); ERR_clear_error() }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        let result = data.withUnsafeBytes { raw in
            EVP_DigestVerify(context, der, der.count, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
        return result == 1
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

    private static func derSignature(fromRaw raw: Data) -> [UInt8]? {
        let bytes = [UInt8](raw)
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(bytes, 32, nil)
        let s = bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}

@available(*, unavailable)
extension SigningKey: Sendable {}
