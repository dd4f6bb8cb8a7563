import Foundation
import Testing
import CherryClient
import HTTPCore

/// The contract's examples, decoded and re-encoded with `CherryWire`.
@Suite struct WireTests {
    /// Re-encodes `text` after decoding it as `T`, and compares as parsed JSON with the original.
    func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ text: String) throws -> T {
        let value = try CherryWire.decode(T.self, from: Data(text.utf8))
        let encoded = try CherryWire.encode(value)
        #expect(try CherryWire.decode(T.self, from: encoded) == value)
        let original = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        let again = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(original == again, "\(T.self): \(String(decoding: encoded, as: UTF8.self))")
        return value
    }

    @Test func theTokenRequestAndAnswerRoundTrip() throws {
        let request = try roundTrip(CherryTokenRequest.self, #"{"appUserId": "u_1001", "ttlSeconds": 900}"#)
        #expect(request == CherryTokenRequest(appUserId: "u_1001", ttlSeconds: 900))
        let token = try roundTrip(CherryIssuedToken.self, #"""
            {"customerToken": "opaque", "tokenId": "tok_1", "appUserId": "u_1001", "expiresAt": "2026-12-01T08:15:00Z"}
            """#)
        #expect(token.tokenId == "tok_1")
        #expect(token.expiresAt == "2026-12-01T08:15:00Z")
    }

    @Test func theProductSetRoundTripsAndNoneIsAnExplicitNull() throws {
        let current = try roundTrip(CherryCurrentProductSet.self, #"""
            {"productSet": {"productSetId": "ps_1", "packages": [
              {"packageId": "pkg_monthly", "position": 1, "store": "apple",
               "storeProductId": "com.example.pro.monthly", "accessLevel": "pro"}]}}
            """#)
        #expect(current.productSet?.packages.first?.position == 1)
        #expect(current.productSet?.packages.first?.accessLevel == "pro")
        let none = try roundTrip(CherryCurrentProductSet.self, #"{"productSet": null}"#)
        #expect(none.productSet == nil)
        #expect(String(decoding: try CherryWire.encode(none), as: UTF8.self) == #"{"productSet":null}"#)
    }

    @Test func theTransactionSubmissionAndResultRoundTrip() throws {
        let submission = try roundTrip(CherryTransactionSubmission.self,
                                       #"{"appUserId": "u_1001", "signedTransaction": "a.b.c", "source": "purchase"}"#)
        #expect(submission.source == .purchase)
        let result = try roundTrip(CherryTransactionResult.self, #"""
            {"transactionId": "2000000847061981", "originalTransactionId": "2000000847061981",
             "appUserId": "u_1001", "productId": "com.example.pro.monthly",
             "environment": "Sandbox", "status": "accepted", "duplicate": false,
             "transferredFrom": null, "ledgerEventId": "18014398509481985"}
            """#)
        #expect(result.ledgerEventId == "18014398509481985")
        #expect(result.transferredFrom == nil)
        #expect(result.duplicate == false)
        let text = String(decoding: try CherryWire.encode(result), as: UTF8.self)
        #expect(text.contains(#""transferredFrom":null"#))
        #expect(text.contains(#""ledgerEventId":"18014398509481985""#))
    }

    @Test func theSubscriberRoundTripsWithItsAccessLevels() throws {
        let subscriber = try roundTrip(CherrySubscriber.self, #"""
            {"appUserId": "u_1001", "asOf": "2026-12-01T08:00:00Z",
             "accessLevels": {"pro": {"active": true, "state": "active",
               "productId": "com.example.pro.monthly", "originalTransactionId": "2000000847061981",
               "expiresAt": "2026-12-01T08:05:00Z", "willRenew": true, "revokedAt": null}}}
            """#)
        let pro = try #require(subscriber.accessLevels["pro"])
        #expect(pro.active)
        #expect(pro.state == .active)
        #expect(pro.expiresAt == "2026-12-01T08:05:00Z")
        #expect(pro.revokedAt == nil)
        #expect(String(decoding: try CherryWire.encode(pro), as: UTF8.self).contains(#""revokedAt":null"#))
    }

    @Test func theLedgerRoundTripsWithItsIdAndPriceExactly() throws {
        let page = try roundTrip(CherryLedgerPage.self, #"""
            {"events": [{"eventId": "18014398509481985", "type": "purchase",
              "transactionId": "2000000847061981", "originalTransactionId": "2000000847061981",
              "productId": "com.example.pro.monthly", "price": "4.99", "currency": "USD",
              "occurredAt": "2026-12-01T08:00:00Z"}], "nextAfter": null}
            """#)
        let event = try #require(page.events.first)
        #expect(event.eventId == "18014398509481985")
        #expect(event.price == "4.99")
        #expect(event.type == .purchase)
        let text = String(decoding: try CherryWire.encode(page), as: UTF8.self)
        #expect(text.contains(#""eventId":"18014398509481985""#))
        #expect(text.contains(#""price":"4.99""#))
        #expect(text.contains(#""nextAfter":null"#))
    }

    @Test(arguments: ["18014398509481985", "9007199254740993", "123456789012345678901234567890"])
    func anIdBeyondTwoToTheFiftyThreeSurvivesDecodeAndEncode(_ id: String) throws {
        let text = #"{"events": [{"eventId": "\#(id)", "type": "refund", "transactionId": "\#(id)", "originalTransactionId": "1", "productId": "p", "price": null, "currency": null, "occurredAt": "2026-12-01T08:00:00Z"}], "nextAfter": "\#(id)"}"#
        let page = try CherryWire.decode(CherryLedgerPage.self, from: Data(text.utf8))
        #expect(page.events.first?.eventId == id)
        #expect(page.nextAfter == id)
        let encoded = String(decoding: try CherryWire.encode(page), as: UTF8.self)
        #expect(encoded.contains(#""eventId":"\#(id)""#))
        #expect(encoded.contains(#""nextAfter":"\#(id)""#))
        #expect(encoded.contains(#""price":null"#))
    }

    @Test(arguments: [
        #"{"eventId": 18014398509481985, "type": "purchase", "transactionId": "t", "originalTransactionId": "t", "productId": "p", "price": "4.99", "currency": "USD", "occurredAt": "x"}"#,
        #"{"eventId": "1", "type": "purchase", "transactionId": "t", "originalTransactionId": "t", "productId": "p", "price": 4.99, "currency": "USD", "occurredAt": "x"}"#,
        #"{"eventId": "1", "type": "purchase", "transactionId": 2000000847061981, "originalTransactionId": "t", "productId": "p", "price": "4.99", "currency": "USD", "occurredAt": "x"}"#,
    ])
    func aJSONNumberWhereTheContractSaysStringIsRefused(_ text: String) {
        #expect(throws: DecodingError.self) {
            try CherryWire.decode(CherryLedgerEvent.self, from: Data(text.utf8))
        }
    }

    @Test(arguments: ["4.99", "0", "12345678901234567.89"])
    func aPriceKeepsItsDecimalTextExactly(_ price: String) throws {
        let text = #"{"eventId": "1", "type": "purchase", "transactionId": "t", "originalTransactionId": "t", "productId": "p", "price": "\#(price)", "currency": "USD", "occurredAt": "x"}"#
        let event = try CherryWire.decode(CherryLedgerEvent.self, from: Data(text.utf8))
        #expect(event.price == price)
        #expect(event.priceAmount?.text == price)
        #expect(String(decoding: try CherryWire.encode(event), as: UTF8.self).contains(#""price":"\#(price)""#))
    }

    @Test(arguments: ["4,99", "1e3", "+4.99", "", "USD 4.99"])
    func aPriceThatIsNotDecimalTextIsRefused(_ price: String) {
        let text = #"{"eventId": "1", "type": "purchase", "transactionId": "t", "originalTransactionId": "t", "productId": "p", "price": "\#(price)", "currency": "USD", "occurredAt": "x"}"#
        #expect(throws: DecodingError.self) { try CherryWire.decode(CherryLedgerEvent.self, from: Data(text.utf8)) }
    }

    @Test func anUnknownLedgerEventTypeIsRefusedWithAClearMessage() throws {
        let text = #"{"eventId": "1", "type": "chargeback", "transactionId": "t", "originalTransactionId": "t", "productId": "p", "price": null, "currency": null, "occurredAt": "x"}"#
        do {
            _ = try CherryWire.decode(CherryLedgerEvent.self, from: Data(text.utf8))
            Issue.record("an unknown type decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription ==
                "'chargeback' is not a known ledger event type (known: purchase, renewal, cancellation, expiration, refund, transfer_in, transfer_out)")
            #expect(context.codingPath.map(\.stringValue) == ["type"])
        }
    }

    @Test(arguments: [
        #"{"active": true, "state": "paused", "productId": "p", "originalTransactionId": "t", "expiresAt": null, "willRenew": false, "revokedAt": null}"#,
        #"{"active": true, "state": "ACTIVE", "productId": "p", "originalTransactionId": "t", "expiresAt": null, "willRenew": false, "revokedAt": null}"#,
    ])
    func anUnknownAccessStateIsRefused(_ text: String) {
        #expect(throws: DecodingError.self) {
            try CherryWire.decode(CherryAccessLevel.self, from: Data(text.utf8))
        }
    }

    @Test func anUnknownSourceIsRefused() {
        #expect(throws: DecodingError.self) {
            try CherryWire.decode(CherryTransactionSubmission.self,
                                  from: Data(#"{"appUserId": "u", "signedTransaction": "s", "source": "sync"}"#.utf8))
        }
    }

    @Test func theEmulatorBodiesRoundTrip() throws {
        #expect(try roundTrip(CherryEmulatorAppUser.self, #"{"appUserId": "u_1001"}"#).appUserId == "u_1001")
        let purchase = try roundTrip(CherryEmulatorPurchaseRequest.self,
                                     #"{"productId": "com.example.pro.monthly", "bundleId": "com.example.app", "type": "auto-renewable"}"#)
        #expect(purchase.type == .autoRenewable)
        #expect(try roundTrip(CherryEmulatorPurchaseRequest.self,
                              #"{"productId": "p", "bundleId": "b", "type": "consumable"}"#).type == .consumable)
        #expect(try roundTrip(CherryEmulatorPurchase.self, #"{"transactionId": "2000000847061981", "signedTransaction": "a.b.c"}"#)
            .transactionId == "2000000847061981")
        for type in CherryNotificationType.allCases {
            let body = #"{"type": "\#(type.rawValue)", "originalTransactionId": "2000000847061981"}"#
            #expect(try roundTrip(CherryEmulatorNotification.self, body).type == type)
        }
        #expect(try roundTrip(CherryEmulatorClock.self, #"{"advanceSeconds": 301}"#).advanceSeconds == 301)
        let fault = try roundTrip(CherryEmulatorFault.self, #"{"path": "/v1/apple/transactions", "delayMs": 0, "failNext": 1, "status": 503}"#)
        #expect(fault.status == 503)
        _ = try roundTrip(CherryEmulatorReset.self, "{}")
        #expect(String(decoding: try CherryWire.encode(CherryEmulatorReset()), as: UTF8.self) == "{}")
        #expect(try roundTrip(CherryCurrentProductSet.self, #"{"productSet": null}"#).productSet == nil)
    }

    @Test func theErrorBodyRoundTripsAndCarriesTheCodesRetryability() throws {
        let body = try roundTrip(CherryErrorBody.self,
                                 #"{"error": {"code": "rate_limited", "message": "slow down", "retryable": true}}"#)
        #expect(body == CherryErrorBody(code: .rateLimited, message: "slow down"))
        #expect(String(decoding: try CherryWire.encode(CherryErrorBody(code: .subscriberNotFound, message: "none")), as: UTF8.self)
            == #"{"error":{"code":"subscriber_not_found","message":"none","retryable":false}}"#)
    }

    @Test func theCodeTableMatchesTheContract() {
        let table: [CherryErrorCode: ([Int], Bool)] = [
            .invalidRequest: ([400], false), .tokenInvalid: ([401], false), .tokenExpired: ([401], false),
            .tokenRevoked: ([401], false), .secretKeyInvalid: ([401], false), .keyMismatch: ([403], false),
            .appUserMismatch: ([403], false), .subscriberNotFound: ([404], false), .notFound: ([404], false),
            .idempotencyConflict: ([409], false), .transactionUnverified: ([422], false),
            .transactionLocal: ([422], false), .bundleMismatch: ([422], false), .rateLimited: ([429], true),
            .unavailable: ([500, 502, 503, 504], true),
        ]
        #expect(table.count == CherryErrorCode.allCases.count)
        for code in CherryErrorCode.allCases {
            #expect(code.statuses == table[code]?.0, "\(code)")
            #expect(code.retryable == table[code]?.1, "\(code)")
            #expect(code.statuses.contains(code.status))
        }
    }

    @Test func encodingIsDeterministicWithSortedKeys() throws {
        let subscriber = CherrySubscriber(appUserId: "u/1", asOf: "t", accessLevels: [
            "zeta": CherryAccessLevel(active: false, state: .expired, productId: "p", originalTransactionId: "1",
                                      expiresAt: nil, willRenew: false, revokedAt: nil),
            "alpha": CherryAccessLevel(active: true, state: .cancelled, productId: "p", originalTransactionId: "2",
                                       expiresAt: "e", willRenew: false, revokedAt: nil),
        ])
        let first = try CherryWire.encode(subscriber)
        #expect(try CherryWire.encode(subscriber) == first)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix(#"{"accessLevels":{"alpha":{"active":true,"#))
        #expect(text.contains(#""appUserId":"u/1""#))
    }

    @Test func pathsEscapeIdentifiersAsOneSegment() {
        #expect(CherryWire.Path.subscriber("u 1/2") == "/v1/subscribers/u%201%2F2")
        #expect(CherryWire.Path.ledger("u_1001") == "/v1/subscribers/u_1001/ledger")
        #expect(CherryWire.Path.revokeToken("tok_1") == "/v1/server/customer-tokens/tok_1/revoke")
        #expect(CherryWire.Path.serverSubscriber("u_1001") == "/v1/server/subscribers/u_1001")
        #expect(CherryWire.Path.isEmulator(CherryWire.Path.emulatorClock))
        #expect(!CherryWire.Path.isEmulator("/_emulatorx"))
        #expect(!CherryWire.Path.isEmulator(CherryWire.Path.appleTransactions))
    }
}

/// The idempotency key rule of HTTPCore, as the CherrySub contract states it.
@Suite struct IdempotencyKeyTests {
    @Test(arguments: [("k", true, true), ("a b", true, false), (String(repeating: "x", count: 255), true, true),
                      (String(repeating: "x", count: 256), false, false), ("", false, false), ("é", false, false),
                      ("tab\there", false, false)])
    func aKeyIsOneTo255PrintableASCIICharactersAndTheClientSendsNoSpaces(_ key: String, _ wellFormed: Bool, _ sent: Bool) {
        #expect(IdempotencyKey.isWellFormed(key) == wellFormed)
        #expect(IdempotencyKey.isValid(key) == sent)
    }
}
