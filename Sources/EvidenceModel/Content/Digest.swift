internal import CCrypto
import Foundation

/// SHA-256, HMAC-SHA-256 and secure random bytes, from OpenSSL libcrypto.
package enum Digest {
    /// The SHA-256 of `bytes`.
    package static func sha256<B: DataProtocol>(_ bytes: B) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 of `bytes` as lowercase hex.
    package static func sha256Hex<B: DataProtocol>(_ bytes: B) -> String { hex(sha256(bytes)) }

    /// The SHA-256 of a string's UTF-8 bytes as lowercase hex.
    package static func sha256Hex(_ text: String) -> String {
        var hasher = SHA256Hasher()
        hasher.update(text)
        return hex(hasher.finalize())
    }

    /// The SHA-256 of `bytes` as lowercase hex, with no digest array: a journal entry's hash, taken for every entry
    /// appended (`Chain.hash`).
    package static func sha256Hex(_ bytes: [UInt8]) -> String {
        withSHA256(of: bytes) { hex($0) } ?? hex(sha256(bytes[...]))
    }

    /// Whether the SHA-256 of `bytes`, as lowercase hex, is exactly `hex`: `verify`'s check of each of a journal's
    /// entries, which makes no digest array and no string.
    package static func sha256(of bytes: [UInt8], isHex hex: UnsafeBufferPointer<UInt8>) -> Bool {
        guard hex.count == 64 else { return false }
        return withSHA256(of: bytes) { d in
            for k in 0..<32 where hex[2 * k] != hexDigit(d[k] >> 4) || hex[2 * k + 1] != hexDigit(d[k] & 0x0F) { return false }
            return true
        } ?? false
    }

    /// Calls `body` with the 32 bytes of the SHA-256 of `bytes`, hashed in one call into a digest on the stack; nil,
    /// without calling it, if OpenSSL reports a failure.
    private static func withSHA256<T>(of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        var context = SHA256_CTX()
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let hashed = withUnsafeMutableBytes(of: &digest) { out in
            bytes.withUnsafeBytes { input in
                SHA256_Init(&context) == 1 && SHA256_Update(&context, input.baseAddress, input.count) == 1
                    && SHA256_Final(out.baseAddress?.assumingMemoryBound(to: UInt8.self), &context) == 1
            }
        }
        return hashed ? withUnsafeBytes(of: &digest, body) : nil
    }

    /// HMAC-SHA-256 of `message` under `key`, lowercase hex.
    package static func hmacSHA256Hex(key: [UInt8], message: [UInt8]) -> String {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &out, &length)
            }
        }
        return hex(Array(out.prefix(Int(length))))
    }

    /// `count` cryptographically secure random bytes.
    package static func randomBytes(_ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&out, Int32(count)) == 1 else {
            throw EvidenceError.internalFailure("OpenSSL could not produce random bytes")
        }
        return out
    }

    /// Lowercase hex of `bytes`, written straight into the string.
    package static func hex<B: Collection>(_ bytes: B) -> String where B.Element == UInt8 {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var i = 0
            for b in bytes {
                out[i] = hexDigit(b >> 4)
                out[i + 1] = hexDigit(b & 0x0F)
                i += 2
            }
            return i
        }
    }

    /// The ASCII code of the lowercase hex digit for `v` (0–15).
    @inline(__always) package static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x57 + v }
}

/// An incremental SHA-256 (for hashing a journal or a file without holding it whole).
///
/// OpenSSL's SHA-256 itself (`SHA256_Init`, `SHA256_Update`, `SHA256_Final`; the same code EVP's digest runs), not
/// EVP: a process's first EVP digest initialises OpenSSL's providers and reads its configuration file, about 0.8 ms,
/// which every one-note write would pay (docs/performance.md, cli-add). HMAC, signatures and certificates stay on EVP.
package struct SHA256Hasher: ~Copyable {
    /// The `SHA256_CTX`, on the heap: a stored `SHA256_CTX` would put a type of the internally imported `CCrypto` in
    /// this package type's layout, and other modules, which cannot see it, laid the hasher out too small (the context
    /// then overwrote their stack).
    private let context: UnsafeMutablePointer<SHA256_CTX>

    /// A hasher that has been fed nothing.
    package init() {
        context = .allocate(capacity: 1)
        SHA256_Init(context)
    }

    deinit { context.deallocate() }

    /// Feeds more bytes.
    package mutating func update<B: DataProtocol>(_ bytes: B) {
        for region in bytes.regions {
            region.withUnsafeBytes { buf in
                _ = SHA256_Update(context, buf.baseAddress, buf.count)
            }
        }
    }

    /// Feeds a string's UTF-8 bytes.
    package mutating func update(_ text: String) {
        var t = text
        t.withUTF8 { buf in _ = SHA256_Update(context, buf.baseAddress, buf.count) }
    }

    /// The digest; the hasher must not be used afterwards.
    package consuming func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        SHA256_Final(&out, context)
        return out
    }
}
