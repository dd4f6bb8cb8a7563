internal import CCrypto

/// SHA-256 for `verify`'s million envelopes: one digest context, reused.
///
/// OpenSSL 3 looks the algorithm up again (a fetch) every time a context is set up with
/// `EVP_sha256()`; fetching it once and reusing one context keeps each entry to the hashing itself.
final class EnvelopeHasher {
    private let md: OpaquePointer?
    private let ctx: OpaquePointer?

    init() {
        md = EVP_MD_fetch(nil, "SHA256", nil)
        ctx = EVP_MD_CTX_new()
    }

    deinit {
        EVP_MD_CTX_free(ctx)
        EVP_MD_free(md)
    }

    /// Whether the SHA-256 of `bytes`, as lowercase hex, is exactly `hex`.
    func matches(_ bytes: [UInt8], hex: UnsafeBufferPointer<UInt8>) -> Bool {
        guard hex.count == 64, let md, let ctx else { return false }
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var length: UInt32 = 0
        let ok = withUnsafeMutableBytes(of: &digest) { out in
            bytes.withUnsafeBytes { input in
                EVP_DigestInit_ex(ctx, md, nil) == 1 && EVP_DigestUpdate(ctx, input.baseAddress, input.count) == 1
                    && EVP_DigestFinal_ex(ctx, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length) == 1
            }
        }
        guard ok, length == 32 else { return false }
        return withUnsafeBytes(of: &digest) { d in
            for k in 0..<32 where hex[2 * k] != Digest.hexDigit(d[k] >> 4) || hex[2 * k + 1] != Digest.hexDigit(d[k] & 0x0F) { return false }
            return true
        }
    }
}

@available(*, unavailable)
extension EnvelopeHasher: Sendable {}
