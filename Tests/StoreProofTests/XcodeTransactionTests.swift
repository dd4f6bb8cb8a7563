import Foundation
import Testing

@testable import StoreProof

@Suite struct XcodeTransactionTests {
    static func fixture() throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/xcode-signed-transaction", withExtension: "jws"))
        return try JWSVerifier.token(fromFileContents: Data(contentsOf: url))
    }

    @Test func theRealXcodeSignedTransactionIsClassifiedXcodeLocal() throws {
        let transaction = try JWSVerifier().verify(try Self.fixture(), expectedBundleId: "com.example.naturelab.backyardbirds.example")
        #expect(transaction.signer == .xcode)
        #expect(transaction.environment == .xcode)
        #expect(transaction.transactionId == "0")
        #expect(transaction.originalTransactionId == "0")
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.bundleId == "com.example.naturelab.backyardbirds.example")
        #expect(transaction.type == "Auto-Renewable Subscription")
        #expect(transaction.storefront == "USA")
        #expect(transaction.chainSubjects == ["CN=StoreKit Testing in Xcode, O=StoreKit Testing in Xcode"])
        #expect(transaction.warnings.contains { $0.contains("StoreKit Testing in Xcode") && $0.contains("never certifies") })
    }

    @Test func theXcodeTransactionKeepsFractionalMillisecondsExactly() throws {
        let transaction = try JWSVerifier().verify(try Self.fixture(), expectedBundleId: nil)
        #expect(transaction.purchaseDate?.millisecondsText == "1697679936049.7297")
        #expect(transaction.purchaseDate?.rfc3339 == "2023-10-19T01:45:36.0497297Z")
        #expect(transaction.signedDate.millisecondsText == "1697679936056.485")
        #expect(transaction.signedDate.rfc3339 == "2023-10-19T01:45:36.056485Z")
        #expect(transaction.payload["expiresDate"] == .number("1700358336049.7297"))
    }

    @Test func theXcodeTransactionForAnotherAppIsRefusedNamingBothIds() throws {
        #expect(throws: StoreProofError.bundleIdMismatch(expected: "com.example.other", found: "com.example.naturelab.backyardbirds.example")) {
            try JWSVerifier().verify(try Self.fixture(), expectedBundleId: "com.example.other")
        }
        let message = StoreProofError.bundleIdMismatch(expected: "com.example.other", found: "com.example.naturelab.backyardbirds.example").description
        #expect(message == "the transaction's bundleId 'com.example.naturelab.backyardbirds.example' differs from the expected app id 'com.example.other'; export a transaction from the app under test")
    }

    @Test func theEmbeddedAppleRootIsTheOnePublishedByApple() throws {
        let der = AppleRootCA.g3DER
        #expect(der.count == 583)
        #expect(SHA256Hex.of([UInt8](der)) == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(AppleRootCA.sha256Hex == SHA256Hex.of([UInt8](der)))
        let published = try #require(Bundle.module.url(forResource: "Fixtures/AppleRootCA-G3", withExtension: "cer"))
        #expect(try Data(contentsOf: published) == der)
    }
}

@Suite struct SummaryTests {
    @Test func theXcodeTransactionSummaryNamesSignerFactsAndChain() throws {
        let summary = try JWSVerifier().verify(try XcodeTransactionTests.fixture(), expectedBundleId: nil).summary
        #expect(summary["provenance"] == nil, "the recorder, not StoreProof, gives a transaction its provenance")
        #expect(summary["environment"] == "Xcode")
        #expect(summary["transactionId"] == "0")
        #expect(summary["bundleId"] == "com.example.naturelab.backyardbirds.example")
        #expect(summary["productId"] == "pass.premium")
        #expect(summary["purchaseDate"] == "2023-10-19T01:45:36.0497297Z")
        #expect(summary["purchaseDateMillis"] == "1697679936049.7297")
        #expect(summary["chainSubjects"] == ["CN=StoreKit Testing in Xcode, O=StoreKit Testing in Xcode"])
        #expect(summary["jws"] == nil)
    }
}
