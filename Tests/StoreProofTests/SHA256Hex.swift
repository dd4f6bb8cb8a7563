import CCrypto

/// SHA-256 in lowercase hex, for checking embedded certificates.
enum SHA256Hex {
    static func of(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256(bytes, bytes.count, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
