internal import CCrypto

/// ECDSA P-256 with SHA-256 as JWS uses it (RFC 7518 §3.4). Internal: no OpenSSL pointer leaves StoreProof.
enum ES256 {
    /// The JWS signature length: r and s, 32 big-endian bytes each.
    static let signatureLength = 64

    /// Whether `signature` (raw r‖s) signs `message` under `publicKey`.
    ///
    /// JWS carries r‖s, while OpenSSL's EVP interface expects the DER
    /// `ECDSA-Sig-Value`, so the two halves are re-encoded first.
    static func verify(signature: [UInt8], message: [UInt8], publicKey: OpaquePointer) -> Bool {
        guard signature.count == signatureLength, let der = derSignature(raw: signature) else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, publicKey) == 1 else { return false }
        return EVP_DigestVerify(context, der, der.count, message, message.count) == 1
    }

    /// The DER encoding of raw r‖s, or nil when OpenSSL cannot build it.
    static func derSignature(raw: [UInt8]) -> [UInt8]? {
        guard raw.count == signatureLength, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + 32 }, 32, nil) }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        // ECDSA_SIG_set0 takes ownership of r and s on success only.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
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
        guard written == length else { return nil }
        return der
    }
}
