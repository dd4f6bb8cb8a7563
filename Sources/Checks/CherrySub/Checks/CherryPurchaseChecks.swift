import CherryClient
import Foundation
import HTTPCore
import Synchronization

/// Store purchase: the store-signed transaction is accepted once, altered or local ones are refused, a new app
/// user has no access, the product set and the ledger's ids read as the contract says.
enum CherryPurchaseChecks {
    static let all: [CheckDefinition<CherrySubHarness>] = [
        CheckDefinition(id: "purchase.backend-verifies", body: backendVerifies),
        CheckDefinition(id: "purchase.unverified-refused", body: unverifiedRefused),
        CheckDefinition(id: "purchase.local-refused", body: localRefused),
        CheckDefinition(id: "subscriber.404-not-active", body: notFoundIsNotActive),
        CheckDefinition(id: "productset.current", body: currentProductSet),
        CheckDefinition(id: "ledger.ids-as-strings", body: idsAsStrings),
    ]

    static func backendVerifies(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.buyer()
        let transaction = try await run.storeTransaction()
        let finished = Mutex(false)
        let storeTransaction = StoreTransaction(transactionId: transaction.transactionId, signedTransaction: transaction.signedTransaction,
                                                verification: .verified) { finished.withLock { $0 = true } }
        let answer = try await step("submit transaction \(transaction.transactionId) through submitAndFinishAppleTransaction") {
            try await client.submitAndFinishAppleTransaction(appUserId: appUser, transaction: storeTransaction, source: .purchase)
        }
        let result = answer.result
        try require(result.transactionId == transaction.transactionId,
                    "The backend's answer names transaction \(result.transactionId), not the submitted \(transaction.transactionId).")
        try require(result.status == CherrySubSuite.acceptedStatus, "The answer's status is '\(result.status)', not 'accepted'.")
        try require(result.appUserId == appUser, "The answer names app user '\(result.appUserId)', not '\(appUser)'.")
        if !run.isEmulator {
            try require(result.environment == CherrySubSuite.sandboxEnvironment,
                        "The answer's environment is '\(result.environment)', not 'Sandbox': record a purchase made with a store sandbox account.")
        }
        try require(result.ledgerEventId != nil || !result.duplicate || answer.status == 201,
                    "Transaction \(transaction.transactionId) is owned by another app user (duplicate with no ledger event for '\(appUser)'): "
                        + "the purchase was made as another app user.", need: .purchaseOwner)
        try require(finished.withLock { $0 }, "The client core did not finish the transaction after the backend accepted it.")
        let (name, level) = try await run.level(of: appUser, for: result.originalTransactionId, client: client)
        try require(level.active, "Access level '\(name)' is not active after the purchase was accepted (state '\(level.state.rawValue)').")
        let events = try await run.ledger(of: appUser, client: client).filter {
            $0.transactionId == transaction.transactionId && ($0.type == .purchase || $0.type == .renewal)
        }
        try require(events.count == 1, "The ledger has \(events.count) purchase or renewal events for transaction \(transaction.transactionId), not exactly one.")
        if let id = result.ledgerEventId {
            try require(events[0].eventId == id, "The answer's ledgerEventId \(id) is not the ledger's event \(events[0].eventId).")
        }
        run.observeAcceptance(answer)
    }

    static func unverifiedRefused(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.buyer()
        let transaction = try await run.storeTransaction()
        let altered = try alteredSignature(transaction.signedTransaction)
        let subscriberBefore = try await step("read subscriber '\(appUser)'") { try await client.subscriber(appUserId: appUser) }
        let ledgerBefore = try await run.ledger(of: appUser, client: client)

        let finished = Mutex(false)
        let tampered = StoreTransaction(transactionId: transaction.transactionId, signedTransaction: altered, verification: .verified) {
            finished.withLock { $0 = true }
        }
        do {
            _ = try await client.submitAndFinishAppleTransaction(appUserId: appUser, transaction: tampered, source: .purchase)
            throw CheckFailure("The backend accepted transaction \(transaction.transactionId) with an altered signature.")
        } catch let error as CherryClientError {
            try require(error.code == .transactionUnverified, "The altered signature was answered with \(error), not 422 transaction_unverified.")
        }
        try require(!finished.withLock { $0 }, "The client core finished a transaction the backend refused.")
        try require(client.pendingSubmissionKey(appUserId: appUser, transactionId: transaction.transactionId) != nil,
                    "The client core did not keep the refused submission unfinished for a later retry.")

        let subscriberAfter = try await step("read subscriber '\(appUser)' again") { try await client.subscriber(appUserId: appUser) }
        try require(subscriberAfter.subscriber?.accessLevels == subscriberBefore.subscriber?.accessLevels
                        && (subscriberAfter.subscriber == nil) == (subscriberBefore.subscriber == nil),
                    "The subscriber changed after a refused submission.")
        let ledgerAfter = try await run.ledger(of: appUser, client: client)
        try require(ledgerAfter == ledgerBefore, "The ledger changed after a refused submission (\(ledgerBefore.count) → \(ledgerAfter.count) events).")
    }

    static func localRefused(_ run: CherrySubHarness) async throws {
        guard let signer = run.target.localSigner else {
            throw CheckFailure("Internal: no local StoreKit Testing signer was given to the checks.")
        }
        let client = run.client()
        let appUser = try await run.buyer()
        let millis = Int64(run.context.clock.now().timeIntervalSince1970 * 1000)
        let transactionId = "0"
        let payload: [String: Any] = [
            "transactionId": transactionId, "originalTransactionId": transactionId, "bundleId": run.target.bundleId,
            "productId": CherrySubSuite.productId, "purchaseDate": millis, "originalPurchaseDate": millis, "signedDate": millis,
            "expiresDate": millis + 300_000, "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "environment": "Xcode", "transactionReason": "PURCHASE", "storefront": "USA", "storefrontId": "143441",
            "price": 4990, "currency": "USD",
        ]
        let jws = try await step("sign a local StoreKit Testing transaction") {
            try signer(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
        }
        let ledgerBefore = try await run.ledger(of: appUser, client: client)
        do {
            _ = try await client.submitAppleTransaction(appUserId: appUser, signedTransaction: jws, source: .purchase)
            throw CheckFailure("The backend accepted an Xcode-environment (StoreKit Testing) transaction.")
        } catch let error as CherryClientError {
            try require(error.code == .transactionLocal, "The Xcode transaction was answered with \(error), not 422 transaction_local.")
        }
        let ledgerAfter = try await run.ledger(of: appUser, client: client)
        try require(ledgerAfter == ledgerBefore, "The ledger changed after a refused local transaction.")
    }

    static func notFoundIsNotActive(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.newAppUser("new")
        let lookup = try await step("read subscriber '\(appUser)'") { try await client.subscriber(appUserId: appUser) }
        try require(lookup == .notFound,
                    "A new app user with no transaction was answered with a subscriber (active levels: "
                        + "\(lookup.activeAccessLevels.joined(separator: ", "))), not 404 subscriber_not_found.")
        try require(lookup.activeAccessLevels.isEmpty, "The client core reports active access for a subscriber that was not found.")
    }

    static func currentProductSet(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.buyer()
        if run.isEmulator {
            let seeded = CherryProductSet(productSetId: "ps_growcert", packages: [
                CherryPackage(packageId: "pkg_annual", position: 3, store: "apple", storeProductId: "com.example.pro.annual", accessLevel: "pro"),
                CherryPackage(packageId: "pkg_monthly", position: 1, store: "apple", storeProductId: CherrySubSuite.productId, accessLevel: "pro"),
                CherryPackage(packageId: "pkg_weekly", position: 2, store: "apple", storeProductId: "com.example.pro.weekly", accessLevel: "pro"),
            ])
            try await step("select no product set on the emulator") { try await run.emulator().setProductSet(nil) }
            let none = try await step("read the current product set") { try await client.currentProductSet(appUserId: appUser) }
            try require(none == nil, "With no product set selected the backend answered product set '\(none?.productSetId ?? "")', not none.")
            try await step("select a product set on the emulator") { try await run.emulator().setProductSet(seeded) }
            let read = try await step("read the current product set") { try await client.currentProductSet(appUserId: appUser) }
            guard let read else { throw CheckFailure("The selected product set reads as none.") }
            try require(read.productSetId == seeded.productSetId, "The current product set is '\(read.productSetId)', not the selected '\(seeded.productSetId)'.")
            let expected = seeded.packages.sorted { $0.position < $1.position }
            try require(read.packages == expected,
                        "The packages read as \(read.packages.map { "\($0.packageId)@\($0.position)" }), not \(expected.map { "\($0.packageId)@\($0.position)" }).")
            try await step("select no product set on the emulator again") { try await run.emulator().setProductSet(nil) }
        } else {
            let read = try await step("read the current product set") { try await client.currentProductSet(appUserId: appUser) }
            guard let read else { return }
            let positions = read.packages.map(\.position)
            try require(Set(positions).count == positions.count, "The current product set's packages share positions: \(positions).")
        }
    }

    static func idsAsStrings(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.buyer()
        var submitted: String?
        if run.isEmulator {
            let (_, answer) = try await run.acceptedTransaction(for: appUser, client: client)
            submitted = answer.result.ledgerEventId
        }
        let events = try await run.ledger(of: appUser, client: client)
        guard !events.isEmpty else {
            throw CheckFailure("The ledger of '\(appUser)' is empty: make the purchase on the device first, then run the check again.", waiting: true)
        }
        // As they arrived: every eventId a JSON string, and the client core's ids exactly those strings, in order (so an id
        // above 2^53, where a Double would round it, survives too).
        let pages = run.transcript.filter { $0.method == HTTPMethod.get.rawValue && $0.path.hasPrefix(CherryWire.Path.ledger(appUser)) && $0.status == 200 }
        var received: [Any] = []
        for page in pages {
            guard let body = page.responseBody, let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any],
                  let items = object["events"] as? [[String: Any]] else {
                throw CheckFailure("A ledger page of '\(appUser)' is not a JSON object with events.")
            }
            received += items.map { $0["eventId"] ?? NSNull() }
        }
        let strings = received.compactMap { $0 as? String }
        try require(strings.count == received.count, "Some ledger event ids did not arrive as JSON strings: \(received.filter { !($0 is String) }).")
        try require(strings == events.map(\.eventId), "The client core's event ids \(events.map(\.eventId)) are not, character for character, those received \(strings).")
        if let submitted {
            try require(events.contains { $0.eventId == submitted },
                        "The submission's ledgerEventId \(submitted) is not, character for character, an event id of the ledger.")
        }
    }

    /// `jws` with the first character of its signature changed, so that the signature no longer verifies.
    static func alteredSignature(_ jws: String) throws -> String {
        var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let first = parts[2].first else { throw CheckFailure("The recorded transaction is not a compact JWS.") }
        parts[2] = (first == "A" ? "B" : "A") + parts[2].dropFirst()
        return parts.joined(separator: ".")
    }
}

/// The JSON text of a wire body as evidence keeps it (sorted keys).
enum JSONEncoderForEvidence {
    static func text<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
