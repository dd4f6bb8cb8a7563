import Foundation
import Testing

@testable import StoreProof

/// growcert's chain rules against Apple's real chain of 2025 (WWDR G6 and a receipt-signing leaf), which no test
/// PKI made: the rules a JWS's x5c must pass (markers, issuers, validity at signedDate, path to the built-in root).
@Suite struct RealAppleChainTests {
    static func certificate(_ name: String) throws -> X509Certificate {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/apple-chain-2025/" + name, withExtension: "der"))
        return try #require(X509Certificate(der: [UInt8](try Data(contentsOf: url))))
    }

    static func chain() throws -> [X509Certificate] {
        [try certificate("leaf-2025-09"), try certificate("wwdr-g6"), try certificate("root-g3")]
    }

    /// Apple's own test's effective date (2025-11-01T02:09:35Z), in milliseconds.
    static let effective = StoreTimestamp(millisecondsText: "1761962975000")

    @Test func theRealChainOf2025IsTheAppStoresAtItsEffectiveDate() throws {
        let signedDate = try #require(Self.effective)
        #expect(try JWSVerifier().classifyStoreChain(try Self.chain(), environment: .sandbox, signedDate: signedDate) == .appStoreSandbox)
        #expect(try JWSVerifier().classifyStoreChain(try Self.chain(), environment: .production, signedDate: signedDate) == .appStoreProduction)
    }

    @Test func theRealChainIsRefusedBeforeItsLeafWasIssued() throws {
        let before = try #require(StoreTimestamp(millisecondsText: "1704067200000"))  // 2024-01-01
        #expect(throws: StoreProofError.self) {
            try JWSVerifier().classifyStoreChain(try Self.chain(), environment: .sandbox, signedDate: before)
        }
    }

    @Test func theRealChainIsRefusedUnderAnotherRoot() throws {
        let signedDate = try #require(Self.effective)
        let testRoot = [UInt8](repeating: 0x30, count: 10)
        #expect(throws: StoreProofError.self) {
            try JWSVerifier(trustedRootDER: Data(testRoot)).classifyStoreChain(try Self.chain(), environment: .sandbox, signedDate: signedDate)
        }
    }
}
