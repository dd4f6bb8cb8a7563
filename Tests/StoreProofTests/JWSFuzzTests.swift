import Foundation
import Testing

@testable import StoreProof

/// SplitMix64: a tiny deterministic generator, so a failing mutation can be replayed from the seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct JWSFuzzTests {
    static let iterations = 12_000
    static let seed: UInt64 = 0x6772_6F77_6365_7274  // "growcert"

    /// One mutation of a token's bytes: flip, truncate, insert, substitute, or rearrange segments.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var out = bytes
        let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let specials: [UInt8] = [0x2E, 0x3D, 0x20, 0x0A, 0x00, 0x2B, 0x2F, 0xFF, 0x22, 0x7B]
        switch random.next() % 6 {
        case 0:
            guard !out.isEmpty else { return [0x2E] }
            let i = Int(random.next() % UInt64(out.count))
            out[i] ^= UInt8(truncatingIfNeeded: 1 + random.next() % 255)
        case 1:
            out = Array(out.prefix(Int(random.next() % UInt64(out.count + 1))))
        case 2:
            let i = Int(random.next() % UInt64(out.count + 1))
            let byte = random.next() % 2 == 0 ? base64[Int(random.next() % 64)] : specials[Int(random.next() % UInt64(specials.count))]
            out.insert(byte, at: i)
        case 3:
            guard !out.isEmpty else { return [0x41] }
            out[Int(random.next() % UInt64(out.count))] = base64[Int(random.next() % 64)]
        case 4:
            var segments = out.split(separator: 0x2E, omittingEmptySubsequences: false).map(Array.init)
            guard segments.count >= 2 else { return out + [0x2E] }
            let a = Int(random.next() % UInt64(segments.count))
            let b = Int(random.next() % UInt64(segments.count))
            if random.next() % 2 == 0 { segments.swapAt(a, b) } else { segments[a] = segments[b] }
            out = Array(segments.joined(separator: [0x2E]))
        default:
            guard !out.isEmpty else { return out }
            let i = Int(random.next() % UInt64(out.count))
            out.remove(at: i)
        }
        return out
    }

    @Test func mutatedSandboxTokensNeverCrashTheVerifierAndAreNeverAccepted() throws {
        let chain = try TestPKI.chain()
        let verifier = JWSVerifier(trustedRootDER: Data(chain.root.certificateDER))
        let original = try TestPKI.sign(header: TestPKI.header(x5c: chain.x5c), payload: TestPKI.payload(environment: "Sandbox"), signer: chain.leaf)
        #expect(try verifier.verify(original, expectedBundleId: "com.example.birds").signer == .appStoreSandbox)

        var random = SplitMix64(state: Self.seed)
        var tried = 0
        var accepted: [String] = []
        var refusals: [String: Int] = [:]
        let originalBytes = Array(original.utf8)
        while tried < Self.iterations {
            var bytes = Self.mutate(originalBytes, &random)
            for _ in 0..<Int(random.next() % 3) { bytes = Self.mutate(bytes, &random) }
            let mutated = String(decoding: bytes, as: UTF8.self)
            if mutated == original { continue }
            tried += 1
            do {
                _ = try verifier.verify(mutated, expectedBundleId: "com.example.birds")
                accepted.append(mutated)
            } catch let error as StoreProofError {
                refusals[String(String(describing: error).prefix(24)), default: 0] += 1
            }
        }
        #expect(accepted.isEmpty, "accepted \(accepted.count) mutated tokens, first: \(accepted.first ?? "")")
        // The mutations must reach the deep checks too, not only the shape checks.
        #expect(refusals["signature does not verif", default: 0] > 300)
        #expect(refusals["the JWS payload is not v", default: 0] > 100)
        #expect(refusals.keys.contains { $0.hasPrefix("x5c certificate") })
        #expect(refusals["the JWS is not a compact", default: 0] > 1_000)
    }
}
