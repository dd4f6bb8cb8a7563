internal import CCrypto

/// An RSA public key parsed from a DER X.509 SubjectPublicKeyInfo; owns its `EVP_PKEY` and frees it in `deinit`.
///
/// Not `Sendable`: one verification uses it on one thread. Internal: no OpenSSL pointer leaves StoreProof.
final class RSAPublicKey {
    private let handle: OpaquePointer

    /// Parses exactly one DER SubjectPublicKeyInfo holding an RSA key of at least 1024 bits; nil otherwise.
    init?(spki der: [UInt8]) {
        guard !der.isEmpty else { return nil }
        var parsed: OpaquePointer?
        let consumed: Int = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return -1 }
            var cursor: UnsafePointer<UInt8>? = base
            parsed = d2i_PUBKEY(nil, &cursor, buffer.count)
            guard let cursor else { return -1 }
            return cursor - base
        }
        ERR_clear_error()
        guard let parsed else { return nil }
        guard consumed == der.count, EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA, EVP_PKEY_get_bits(parsed) >= 1024 else {
            EVP_PKEY_free(parsed)
            return nil
        }
        handle = parsed
    }

    deinit { EVP_PKEY_free(handle) }

    /// Whether `signature` is an RSASSA-PKCS1-v1_5 signature with SHA-1 over exactly `message` (Play Billing's `SHA1withRSA`).
    func verifySHA1(signature: [UInt8], message: [UInt8]) -> Bool {
        guard !signature.isEmpty, let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha1(), nil, handle) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}

@available(*, unavailable)
extension RSAPublicKey: Sendable {}
