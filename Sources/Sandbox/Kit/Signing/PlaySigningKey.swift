internal import CCrypto
import Foundation

/// The emulator's stand-in for an app's Google Play signing key: an RSA 2048 key pair (`EVP_PKEY`, freed in
/// `deinit`) that signs purchase JSON as Play Billing does (RSASSA-PKCS1-v1_5 with SHA-1). Its public half, in the
/// license-key format Play Console shows, is `publicKeyDER`. What it signs says `environment: Emulator` and never
/// certifies.
final class PlaySigningKey {
    private let pointer: OpaquePointer
    /// The public key's DER X.509 SubjectPublicKeyInfo.
    let publicKeyDER: Data

    /// Generates a fresh RSA 2048 key.
    init() throws {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else { throw openSSLFailure("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw openSSLFailure("EVP_PKEY_keygen_init") }
        guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1 else { throw openSSLFailure("EVP_PKEY_CTX_set_rsa_keygen_bits") }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen(context, &key) == 1, let key else { throw openSSLFailure("EVP_PKEY_keygen") }
        pointer = key
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { throw openSSLFailure("i2d_PUBKEY") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(key, &cursor)
        }
        guard written == length else { throw openSSLFailure("i2d_PUBKEY") }
        publicKeyDER = Data(der)
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The base64 SHA1withRSA signature of exactly `data`, as `Purchase.getSignature()` returns it.
    func sign(_ data: Data) throws -> String {
        guard let context = EVP_MD_CTX_new() else { throw openSSLFailure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha1(), nil, pointer) == 1 else { throw openSSLFailure("EVP_DigestSignInit") }
        var length = 0
        let bytes = [UInt8](data)
        guard EVP_DigestSign(context, nil, &length, bytes, bytes.count) == 1 else { throw openSSLFailure("EVP_DigestSign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, bytes, bytes.count) == 1 else { throw openSSLFailure("EVP_DigestSign") }
        return Data(signature[0..<length]).base64EncodedString()
    }
}

@available(*, unavailable)
extension PlaySigningKey: Sendable {}
