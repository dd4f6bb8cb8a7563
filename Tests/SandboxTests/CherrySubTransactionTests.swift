import CherryClient
import Foundation
import Testing
import TestSupport
@testable import Sandbox

/// `POST /v1/apple/transactions`: the four checks in order, acceptance, duplicates, renewals and restore transfers.
@Suite struct CherrySubTransactionTests {
    static let pki = Result { try AppStoreTestPKI.make() }

    /// The StoreKit Testing in Xcode transaction from `Fixtures/` (bundle `com.example.naturelab…`; origin in `Fixtures/ORIGIN.md`).
    static func xcodeTransaction() throws -> String {
        let file = try #require(Bundle.module.url(forResource: "Fixtures/xcode-signed-transaction", withExtension: "jws"))
        return try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func sandboxJWS(_ pki: AppStoreTestPKI, bundleId: String = "com.example.app", environment: String = "Sandbox",
                           transactionId: String = "2000000847061981", originalTransactionId: String? = nil,
                           price: Int? = 4990) throws -> String {
        try pki.signTransaction(transactionId: transactionId, bundleId: bundleId, productId: "com.example.pro.monthly",
                                purchaseDate: Date(), environment: environment, originalTransactionId: originalTransactionId, price: price)
    }

    @Test func anEmulatorPurchaseIsAcceptedOnceWithALedgerEventAboveTwoToThe53() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let purchase = try await h.storePurchase()
        let response = try await h.submit(purchase.signedTransaction, token: token)
        let result = try decoded(CherryTransactionResult.self, response, status: 201)
        #expect(result.transactionId == purchase.transactionId)
        #expect(result.originalTransactionId == purchase.transactionId)
        #expect(result.appUserId == "u_1001")
        #expect(result.productId == "com.example.pro.monthly")
        #expect(result.environment == "Emulator")
        #expect(result.status == "accepted")
        #expect(result.duplicate == false)
        #expect(result.transferredFrom == nil)
        #expect(response.text.contains("\"transferredFrom\":null"))
        let eventId = try #require(result.ledgerEventId)
        #expect(response.text.contains("\"ledgerEventId\":\"\(eventId)\""))
        #expect(DigitCounter.greater(eventId, than: "9007199254740992"))
        #expect(eventId == "18014398509481985")
    }

    @Test func anXcodeTransactionIsLocalBeforeItsChainOrBundleIsJudged() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let response = try await h.submit(try Self.xcodeTransaction(), token: token)
        #expect(response.status == 422)
        #expect(response.code == "transaction_local")
        #expect(try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token)).code == "subscriber_not_found")
    }

    @Test func aSandboxTransactionThatDoesNotChainToTheTrustedRootIsUnverifiedBeforeItsBundleIsJudged() async throws {
        let pki = try Self.pki.get()
        let h = try CherryHarness()  // trusts Apple Root CA - G3 only
        let token = try await h.token()
        let response = try await h.submit(try Self.sandboxJWS(pki, bundleId: "com.other.app"), token: token)
        #expect(response.status == 422)
        #expect(response.code == "transaction_unverified")
    }

    @Test func anotherBundleIsBundleMismatchBeforeTheEnvironmentIsJudged() async throws {
        let pki = try Self.pki.get()
        let h = try CherryHarness(trustedRootDER: pki.rootDER)
        let token = try await h.token()
        let response = try await h.submit(try Self.sandboxJWS(pki, bundleId: "com.other.app", environment: "Production"), token: token)
        #expect(response.status == 422)
        #expect(response.code == "bundle_mismatch")
        let emulator = try await h.storePurchase(bundleId: "com.other.app")
        #expect(try await h.submit(emulator.signedTransaction, token: token).code == "bundle_mismatch")
    }

    @Test func aProductionTransactionIsUnverifiedOnStaging() async throws {
        let pki = try Self.pki.get()
        let h = try CherryHarness(trustedRootDER: pki.rootDER)
        let token = try await h.token()
        let response = try await h.submit(try Self.sandboxJWS(pki, environment: "Production"), token: token)
        #expect(response.status == 422)
        #expect(response.code == "transaction_unverified")
        #expect(try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token)).code == "subscriber_not_found")
    }

    @Test func aSandboxTransactionChainingToTheTrustedRootIsAcceptedWithItsPrice() async throws {
        let pki = try Self.pki.get()
        let h = try CherryHarness(trustedRootDER: pki.rootDER)
        let token = try await h.token()
        let result = try decoded(CherryTransactionResult.self, try await h.submit(try Self.sandboxJWS(pki), token: token), status: 201)
        #expect(result.environment == "Sandbox")
        #expect(result.transactionId == "2000000847061981")
        let events = try await h.ledger(token: token).events
        #expect(events.map(\.price) == ["4.99"])
        #expect(events.map(\.currency) == ["USD"])
    }

    @Test func aTransactionWithoutAPriceHasANullPrice() async throws {
        let pki = try Self.pki.get()
        let h = try CherryHarness(trustedRootDER: pki.rootDER)
        let token = try await h.token()
        _ = try decoded(CherryTransactionResult.self, try await h.submit(try Self.sandboxJWS(pki, price: nil), token: token), status: 201)
        let response = try await h.get(CherryWire.Path.ledger("u_1001"), auth: .token(token))
        #expect(response.text.contains("\"price\":null"))
        #expect(try decoded(CherryLedgerPage.self, response, status: 200).events.map(\.price) == [nil])
    }

    @Test func anotherEmulatorsPurchaseATamperedOneAndGarbageAreUnverified() async throws {
        let h = try CherryHarness()
        let other = try CherryHarness()
        let token = try await h.token()
        let foreign = try await other.storePurchase()
        let own = try await h.storePurchase()
        var parts = own.signedTransaction.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        for jws in [foreign.signedTransaction, parts.joined(separator: "."), "not-a-jws"] {
            let response = try await h.submit(jws, token: token)
            #expect(response.status == 422)
            #expect(response.code == "transaction_unverified")
        }
        #expect(try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token)).code == "subscriber_not_found")
    }

    @Test func aRepeatUnderAnotherKeyIsADuplicateWithTheOriginalEventAndNoNewOne() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let purchase = try await h.storePurchase()
        let first = try decoded(CherryTransactionResult.self, try await h.submit(purchase.signedTransaction, token: token), status: 201)
        let again = try decoded(CherryTransactionResult.self,
                                try await h.submit(purchase.signedTransaction, token: token, source: .update), status: 200)
        #expect(again.duplicate == true)
        #expect(again.ledgerEventId == first.ledgerEventId)
        #expect(try await h.ledger(token: token).events.map(\.type) == [.purchase])
    }

    @Test(arguments: [CherryTransactionSource.purchase, .update])
    func anotherUsersTransactionChangesNothingAndRevealsNoOwner(source: CherryTransactionSource) async throws {
        let h = try CherryHarness()
        let owner = try await h.token("u_1001")
        let intruder = try await h.token("u_2002")
        let purchase = try await h.storePurchase()
        _ = try decoded(CherryTransactionResult.self, try await h.submit(purchase.signedTransaction, token: owner), status: 201)
        let response = try await h.submit(purchase.signedTransaction, as: "u_2002", token: intruder, source: source)
        let result = try decoded(CherryTransactionResult.self, response, status: 200)
        #expect(result.duplicate == true)
        #expect(result.appUserId == "u_2002")
        #expect(result.ledgerEventId == nil)
        #expect(result.transferredFrom == nil)
        #expect(!response.text.contains("u_1001"))
        #expect(try await h.get(CherryWire.Path.subscriber("u_2002"), auth: .token(intruder)).code == "subscriber_not_found")
        #expect(try await h.subscriber(token: owner).accessLevels["com.example.pro.monthly"]?.active == true)
    }

    @Test func aRestoreByAnotherUserMovesThatPurchaseOnly() async throws {
        let h = try CherryHarness()
        let first = try await h.token("u_1001")
        let second = try await h.token("u_2002")
        let moved = try await h.storePurchase()
        _ = try decoded(CherryTransactionResult.self, try await h.submit(moved.signedTransaction, token: first), status: 201)
        let kept = try await h.acceptedPurchase("u_1001", token: first, type: .consumable, productId: "coins_100")
        let restoreJWS = moved.signedTransaction
        let response = try await h.submit(restoreJWS, as: "u_2002", token: second, source: .restore)
        let result = try decoded(CherryTransactionResult.self, response, status: 200)
        #expect(result.duplicate == false)
        #expect(result.appUserId == "u_2002")
        #expect(result.transferredFrom == "u_1001")

        let secondLedger = try await h.ledger("u_2002", token: second).events
        #expect(secondLedger.map(\.type) == [.transferIn])
        #expect(result.ledgerEventId == secondLedger.first?.eventId)
        let firstLedger = try await h.ledger("u_1001", token: first).events
        #expect(firstLedger.map(\.type) == [.purchase, .purchase, .transferOut])

        let old = try await h.subscriber("u_1001", token: first)
        #expect(old.accessLevels["com.example.pro.monthly"]?.state == .transferred)
        #expect(old.accessLevels["com.example.pro.monthly"]?.active == false)
        #expect(old.accessLevels["coins_100"]?.state == .active)
        #expect(old.accessLevels["coins_100"]?.originalTransactionId == kept.transactionId)
        let new = try await h.subscriber("u_2002", token: second)
        #expect(new.accessLevels.keys.sorted() == ["com.example.pro.monthly"])
        #expect(new.accessLevels["com.example.pro.monthly"]?.state == .active)
        #expect(new.accessLevels["com.example.pro.monthly"]?.active == true)

        // Restoring again as the new owner changes nothing.
        let again = try decoded(CherryTransactionResult.self,
                                try await h.submit(restoreJWS, as: "u_2002", token: second, source: .restore), status: 200)
        #expect(again.duplicate == true)
        #expect(again.ledgerEventId == result.ledgerEventId)
        #expect(try await h.ledger("u_2002", token: second).events.count == 1)
    }

    @Test func aNewTransactionOfAKnownPurchaseIsARenewalForItsOwner() async throws {
        let pki = try Self.pki.get()
        let h = try CherryHarness(trustedRootDER: pki.rootDER)
        let token = try await h.token()
        _ = try decoded(CherryTransactionResult.self, try await h.submit(try Self.sandboxJWS(pki), token: token), status: 201)
        let renewal = try Self.sandboxJWS(pki, transactionId: "2000000847061999", originalTransactionId: "2000000847061981")
        let result = try decoded(CherryTransactionResult.self, try await h.submit(renewal, token: token, source: .update), status: 201)
        #expect(result.originalTransactionId == "2000000847061981")
        #expect(result.duplicate == false)
        let events = try await h.ledger(token: token).events
        #expect(events.map(\.type) == [.purchase, .renewal])
        #expect(events.last?.transactionId == "2000000847061999")
        #expect(events.last?.eventId == result.ledgerEventId)
    }

    @Test func theAccessLevelComesFromTheCurrentProductSetOrElseTheProductId() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let set = CherryProductSet(productSetId: "ps_1", packages: [
            CherryPackage(packageId: "pkg_yearly", position: 2, store: "apple", storeProductId: "com.example.pro.yearly", accessLevel: "pro"),
            CherryPackage(packageId: "pkg_monthly", position: 1, store: "apple", storeProductId: "com.example.pro.monthly", accessLevel: "pro"),
        ])
        #expect(try decoded(CherryCurrentProductSet.self, try await h.get(CherryWire.Path.currentProductSet, query: ["appUserId": "u_1001"],
                                                                          auth: .token(token)), status: 200).productSet == nil)
        _ = try await h.post(CherryWire.Path.emulatorProductSets, CherryCurrentProductSet(productSet: set))
        let current = try decoded(CherryCurrentProductSet.self, try await h.get(CherryWire.Path.currentProductSet,
                                                                                query: ["appUserId": "u_1001"], auth: .token(token)), status: 200)
        #expect(current.productSet?.packages.map(\.packageId) == ["pkg_monthly", "pkg_yearly"])
        _ = try await h.acceptedPurchase(token: token)
        _ = try await h.acceptedPurchase(token: token, type: .consumable, productId: "coins_100")
        let levels = try await h.subscriber(token: token).accessLevels
        #expect(levels.keys.sorted() == ["coins_100", "pro"])
        #expect(levels["pro"]?.productId == "com.example.pro.monthly")
        #expect(levels["coins_100"]?.expiresAt == nil)
    }
}
