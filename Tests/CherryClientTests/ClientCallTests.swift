import Foundation
import Testing
import HTTPCore
import CherryClient

/// The customer calls, transaction submission and error mapping.
@Suite struct ClientCallTests {
    @Test func theProductSetsPackagesAreSortedByPosition() async throws {
        let transport = ScriptedTransport { _, _ in Fixture.json(200, Fixture.productSet) }
        let (client, _) = try Fixture.client(transport)
        let set = try #require(try await client.currentProductSet(appUserId: "u_1001"))
        #expect(set.packages.map(\.packageId) == ["pkg_monthly", "pkg_weekly", "pkg_annual"])
        #expect(transport.requests.first?.pathAndQuery == "/v1/product-sets/current?appUserId=u_1001")
    }

    @Test func noSelectedProductSetIsNil() async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.json(200, Fixture.noProductSet) })
        #expect(try await client.currentProductSet(appUserId: "u_1001") == nil)
    }

    @Test func subscriberNotFoundIsNoAccessNotAnError() async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.error(404, "subscriber_not_found") })
        let lookup = try await client.subscriber(appUserId: "u_1001")
        #expect(lookup == .notFound)
        #expect(!lookup.hasActiveAccess("pro"))
        #expect(lookup.activeAccessLevels.isEmpty)
    }

    @Test func aPlainNotFoundIsAnError() async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.error(404, "not_found") })
        await #expect { _ = try await client.subscriber(appUserId: "u_1001") } throws: { ($0 as? CherryClientError)?.code == .notFound }
    }

    @Test func anActiveSubscriberHasAccess() async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.json(200, Fixture.subscriber()) })
        let lookup = try await client.subscriber(appUserId: "u_1001")
        #expect(lookup.hasActiveAccess("pro"))
        #expect(!lookup.hasActiveAccess("gold"))
        #expect(lookup.subscriber?.accessLevels["pro"]?.state == .active)
    }

    @Test func idsBeyondTwoToTheFiftyThreeArePreserved() async throws {
        let transport = ScriptedTransport { request, _ in
            request.path == CherryWire.Path.appleTransactions ? Fixture.json(201, Fixture.transactionResult())
                : Fixture.json(200, Fixture.ledger)
        }
        let (client, _) = try Fixture.client(transport)
        let page = try await client.ledger(appUserId: "u_1001", after: "9007199254740993", limit: 500)
        #expect(page.events.map(\.eventId) == [Fixture.bigId])
        #expect(page.nextAfter == Fixture.bigId)
        #expect(page.events.first?.price == "4.99")
        #expect(transport.requests.first?.pathAndQuery == "/v1/subscribers/u_1001/ledger?after=9007199254740993&limit=500")
        let answer = try await client.submitAppleTransaction(appUserId: "u_1001", signedTransaction: "a.b.c", source: .restore)
        #expect(answer.result.ledgerEventId == Fixture.bigId)
    }

    @Test(arguments: [0, 501])
    func aLedgerLimitOutsideTheContractIsRefusedWithoutARequest(_ limit: Int) async throws {
        let transport = ScriptedTransport { _, _ in Fixture.json(200, Fixture.ledger) }
        let (client, broker) = try Fixture.client(transport)
        await #expect(throws: CherryClientError.self) { _ = try await client.ledger(appUserId: "u_1001", limit: limit) }
        #expect(transport.requests.isEmpty)
        #expect(broker.issued.isEmpty)
    }

    @Test func anUnverifiedTransactionIsRefusedWithoutARequestAndStaysUnfinished() async throws {
        let transport = ScriptedTransport { _, _ in Fixture.json(201, Fixture.transactionResult()) }
        let (client, broker) = try Fixture.client(transport)
        let (transaction, finished) = Fixture.transaction(verified: false)
        await #expect(throws: CherryClientError.unverifiedTransaction(transactionId: "2000000847061981")) {
            _ = try await client.submitAndFinishAppleTransaction(appUserId: "u_1001", transaction: transaction, source: .purchase)
        }
        #expect(transport.requests.isEmpty)
        #expect(broker.issued.isEmpty)
        #expect(finished.count == 0)
    }

    @Test func aTransactionIsFinishedOnlyAfterA2xxAndRetriedWithTheSameKeyAndBodyAfterA503() async throws {
        let transport = ScriptedTransport { _, n in
            n == 1 ? Fixture.error(503, "unavailable", retryable: true) : Fixture.json(201, Fixture.transactionResult())
        }
        let (client, _) = try Fixture.client(transport)
        let (transaction, finished) = Fixture.transaction()
        await #expect {
            _ = try await client.submitAndFinishAppleTransaction(appUserId: "u_1001", transaction: transaction, source: .purchase)
        } throws: { error in
            (error as? CherryClientError)?.isRetryable == true && (error as? CherryClientError)?.code == .unavailable
        }
        #expect(finished.count == 0, "a 503 leaves the transaction unfinished")
        let kept = try #require(client.pendingSubmissionKey(appUserId: "u_1001", transactionId: transaction.transactionId))
        // A later delivery (Transaction.updates) re-submits the kept request, not a new one.
        let answer = try await client.submitAndFinishAppleTransaction(appUserId: "u_1001", transaction: transaction, source: .update)
        #expect(answer.status == 201)
        #expect(finished.count == 1)
        let sent = transport.requests(to: CherryWire.Path.appleTransactions)
        #expect(sent.count == 2)
        #expect(sent.map { $0.headers[CherryWire.Header.idempotencyKey] } == [kept, kept])
        #expect(sent[0].body == sent[1].body)
        #expect(sent[1].body.map { String(decoding: $0, as: UTF8.self) }
            == #"{"appUserId":"u_1001","signedTransaction":"eyJhbGciOiJFUzI1NiJ9.payload.signature","source":"purchase"}"#)
        #expect(client.pendingSubmissionKey(appUserId: "u_1001", transactionId: transaction.transactionId) == nil)
    }

    @Test func aRefusedTransactionStaysUnfinished() async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.error(422, "transaction_local") })
        let (transaction, finished) = Fixture.transaction()
        await #expect { _ = try await client.submitAndFinishAppleTransaction(appUserId: "u_1001", transaction: transaction, source: .purchase) }
            throws: { ($0 as? CherryClientError)?.code == .transactionLocal }
        #expect(finished.count == 0)
    }

    @Test func everyRequestCarriesThePublishableKeyAndEveryPostOutsideTheEmulatorAnIdempotencyKey() async throws {
        let transport = ScriptedTransport { request, _ in
            switch request.path {
            case CherryWire.Path.customerTokens: return Fixture.json(201, Fixture.issuedToken(1))
            case CherryWire.Path.appleTransactions: return Fixture.json(201, Fixture.transactionResult())
            case CherryWire.Path.currentProductSet: return Fixture.json(200, Fixture.productSet)
            case CherryWire.Path.subscriber("u_1001"), CherryWire.Path.serverSubscriber("u_1001"): return Fixture.json(200, Fixture.subscriber())
            case CherryWire.Path.ledger("u_1001"): return Fixture.json(200, Fixture.ledger)
            case CherryWire.Path.emulatorPurchases: return Fixture.json(200, #"{"transactionId": "1", "signedTransaction": "a.b.c"}"#)
            default: return HTTPResponse(status: 204)
            }
        }
        let secret = try CherrySecretKey(Fixture.secretKeyText)
        let server = CherryServerClient(configuration: try Fixture.configuration(), secretKey: secret, transport: transport)
        let client = CherrySubClient(configuration: try Fixture.configuration(), transport: transport,
                                     broker: ServerKeyBroker(server: server), now: TestClock().closure)
        let emulator = CherryEmulatorControl(configuration: try Fixture.configuration(), secretKey: secret, transport: transport)
        _ = try await client.currentProductSet(appUserId: "u_1001")
        _ = try await client.subscriber(appUserId: "u_1001")
        _ = try await client.ledger(appUserId: "u_1001")
        _ = try await client.submitAppleTransaction(appUserId: "u_1001", signedTransaction: "a.b.c", source: .purchase)
        _ = try await server.subscriber(appUserId: "u_1001")
        try await emulator.addAppUser("u_1001")
        _ = try await emulator.purchase(productId: "p", bundleId: "b", type: .autoRenewable)
        try await emulator.advanceClock(seconds: 301)
        try await emulator.reset()
        try await client.invalidate(appUserId: "u_1001")

        let requests = transport.requests
        #expect(requests.count == 11)
        for request in requests {
            #expect(request.headers[CherryWire.Header.publishableKey] == Fixture.publishableKey, "\(request)")
            let isEmulator = CherryWire.Path.isEmulator(request.path)
            if request.method == .post && !isEmulator {
                let key = try #require(request.headers[CherryWire.Header.idempotencyKey], "\(request)")
                #expect(IdempotencyKey.isValid(key))
            } else {
                #expect(request.headers[CherryWire.Header.idempotencyKey] == nil, "\(request)")
            }
            if request.body != nil { #expect(request.headers[CherryWire.Header.contentType] == "application/json", "\(request)") }
            if isEmulator || request.path.hasPrefix("/v1/server/") {
                #expect(request.headers[CherryWire.Header.authorization] == "Bearer \(Fixture.secretKeyText)", "\(request)")
            } else {
                #expect(request.headers[CherryWire.Header.authorization] == "Bearer ct_secret_1_abcdef", "\(request)")
            }
        }
        let keys = requests.compactMap { $0.headers[CherryWire.Header.idempotencyKey] }
        #expect(Set(keys).count == keys.count, "a fresh key for each new POST")
    }

    @Test func theSecretKeyAndTokensNeverAppearInDescriptionsOrTheTranscript() async throws {
        let stub = ScriptedTransport { request, _ in
            switch request.path {
            case CherryWire.Path.customerTokens: return Fixture.json(201, Fixture.issuedToken(1))
            case CherryWire.Path.subscriber("u_1001"):
                return Fixture.json(401, #"{"error": {"code": "token_invalid", "message": "bad \#(Fixture.secretKeyText) ct_secret_1_abcdef", "retryable": false}}"#)
            default: return HTTPResponse(status: 204)
            }
        }
        let recorder = RecordingTransport(wrapping: stub, dialect: CherryWire.dialect)
        let secret = try CherrySecretKey(Fixture.secretKeyText)
        let server = CherryServerClient(configuration: try Fixture.configuration(), secretKey: secret, transport: recorder)
        let broker = ServerKeyBroker(server: server)
        let client = CherrySubClient(configuration: try Fixture.configuration(), transport: recorder, broker: broker, now: TestClock().closure)
        var thrown: (any Error)?
        do { _ = try await client.subscriber(appUserId: "u_1001") } catch { thrown = error }
        let error = try #require(thrown)
        let token = try await broker.issueToken(appUserId: "u_1001")
        var dumped = ""
        dump(secret, to: &dumped)
        dump(token, to: &dumped)
        let entries = recorder.entries
        #expect(entries.count >= 3)
        let transcript = String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
        for text in [String(describing: error), "\(secret)", String(reflecting: secret), "\(server)", "\(broker)",
                     "\(token)", dumped, transcript] {
            #expect(!text.contains(Fixture.secretKeyText), "\(text)")
            #expect(!text.contains("iap_sk_"), "\(text)")
            #expect(!text.contains("ct_secret_1_abcdef"), "\(text)")
        }
        #expect(entries.allSatisfy { $0.project == Fixture.publishableKey }, "the publishable key is the transcript's project")
        #expect(entries.allSatisfy { $0.sandboxKind == "hosted" || $0.status == 204 })
    }

    @Test func a429CarriesItsRetryAfterAndIsRetryable() async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in
            Fixture.error(429, "rate_limited", retryable: true, headers: ["Retry-After": "7"])
        })
        do {
            _ = try await client.subscriber(appUserId: "u_1001")
            Issue.record("a 429 did not throw")
        } catch let CherryClientError.api(error) {
            #expect(error.status == 429)
            #expect(error.code == .rateLimited)
            #expect(error.retryable)
            #expect(error.retryAfterSeconds == 7)
            #expect(error.description == "CherrySub answered 429 rate_limited: m. Retry after 7 seconds with the same idempotency key.")
        }
    }

    @Test(arguments: [500, 502, 503, 504])
    func fiveHundredsAreUnavailableAndRetryable(_ status: Int) async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.error(status, "unavailable", retryable: true) })
        await #expect { _ = try await client.currentProductSet(appUserId: "u_1001") } throws: { error in
            guard case .api(let api) = error as? CherryClientError else { return false }
            return api.status == status && api.code == .unavailable && api.retryable
        }
    }

    @Test(arguments: [(TransportError.timeout, true), (.connectionRefused, true), (.connectionLost, true),
                      (.tlsFailure(.nameMismatch), false), (.cancelled, false)])
    func transportFailuresAreRetryableWhenTheyMayPass(_ failure: TransportError, _ retryable: Bool) async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in throw failure })
        await #expect { _ = try await client.currentProductSet(appUserId: "u_1001") } throws: { error in
            (error as? CherryClientError) == .transport(failure) && (error as? CherryClientError)?.isRetryable == retryable
        }
    }

    @Test func aKnownCodeUnderTheWrongStatusIsAContractViolation() async throws {
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.error(400, "subscriber_not_found") })
        await #expect { _ = try await client.subscriber(appUserId: "u_1001") } throws: { error in
            guard case .invalidResponse = error as? CherryClientError else { return false }
            return true
        }
    }

    @Test func aNumberWhereAnIdStringBelongsIsAnInvalidResponse() async throws {
        let body = #"{"events": [{"eventId": 18014398509481985, "type": "purchase", "transactionId": "t", "originalTransactionId": "t", "productId": "p", "price": "4.99", "currency": "USD", "occurredAt": "x"}], "nextAfter": null}"#
        let (client, _) = try Fixture.client(ScriptedTransport { _, _ in Fixture.json(200, body) })
        await #expect { _ = try await client.ledger(appUserId: "u_1001") } throws: { error in
            guard case .invalidResponse(let why) = error as? CherryClientError else { return false }
            return why.contains("eventId")
        }
    }

    @Test func plainHTTPToARemoteHostIsRefused() {
        #expect(throws: CherryClientError.insecureTarget(host: "api.example.com")) {
            _ = try CherryClientConfiguration(baseURL: URL(string: "http://api.example.com")!, publishableKey: Fixture.publishableKey)
        }
    }
}

/// The probe: one unauthenticated request, the kind header read.
@Suite struct ProbeTests {
    @Test(arguments: [("hosted", SandboxKind.hosted), ("emulator", .emulator), (nil, .unknown), ("staging", .unknown)] as [(String?, SandboxKind)])
    func theProbeReadsTheEnvironmentKind(_ header: String?, _ expected: SandboxKind) async throws {
        let transport = ScriptedTransport { _, _ in Fixture.error(401, "token_invalid").withKind(header) }
        let kind = try await CherryProbe.kind(configuration: try Fixture.configuration(), transport: transport)
        #expect(kind == expected)
        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.method == .get)
        #expect(request.path == CherryWire.Path.currentProductSet)
        #expect(request.headers[CherryWire.Header.authorization] == nil)
        #expect(request.headers[CherryWire.Header.publishableKey] == Fixture.publishableKey)
    }

    @Test func theTranscriptTakesItsKindFromCherrySubsHeader() async throws {
        let stub = ScriptedTransport { _, _ in Fixture.error(401, "token_invalid", headers: ["GrooveGrow-Sandbox-Kind": "hosted"]).withKind("emulator") }
        let recorder = RecordingTransport(wrapping: stub, dialect: CherryWire.dialect)
        _ = try await CherryProbe.kind(configuration: try Fixture.configuration(), transport: recorder)
        #expect(recorder.entries.map(\.sandboxKind) == ["emulator"])
    }
}

extension HTTPResponse {
    /// The same response with `CherrySub-Environment-Kind` set to `kind`, or removed for nil.
    func withKind(_ kind: String?) -> HTTPResponse {
        var copy = self
        copy.headers[CherryWire.Header.environmentKind] = kind
        return copy
    }
}
