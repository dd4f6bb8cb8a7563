import Foundation
import Testing
import GrowClient
import HTTPCore

@Suite struct RecordingTransportTests {
    static let jws = "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlCIl19.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMCJ9.c2lnbmF0dXJlLWJ5dGVz"

    private func fixedClock() -> @Sendable () -> ContinuousClock.Instant {
        let start = ContinuousClock.now
        return { start }
    }

    @Test func theTranscriptHasScopeHeadersSandboxKindAndBodiesButNoCredentials() async throws {
        let issued = #"{"customerToken": "opaque-\#(Fixture.tokenA)", "customerId": "c_A", "projectId": "p", "environment": "sandbox", "expiresAt": "2026-11-30T08:15:00Z"}"#
        let recorder = RecordingTransport(wrapping: StubTransport { _ in Fixture.json(201, issued) }, dialect: GrowWire.dialect, now: fixedClock())
        let server = GrowServerClient(configuration: try Fixture.configuration(), serverKey: try Fixture.serverKey(), transport: recorder)
        _ = try await server.issueCustomerToken(customerId: "c_A", ttlSeconds: 900, idempotencyKey: "k-1")

        let entry = try #require(recorder.entries.first)
        #expect(entry.sequence == 1)
        #expect(entry.method == "POST")
        #expect(entry.path == GrowWire.Path.customerTokens)
        #expect(entry.status == 201)
        #expect(entry.project == Fixture.projectHeader)
        #expect(entry.environment == "sandbox")
        #expect(entry.sandboxKind == "hosted")
        #expect(entry.durationMilliseconds == 0)
        #expect(entry.requestBody == #"{"customerId":"c_A","ttlSeconds":900}"#)
        #expect(entry.requestHeaders.first { $0.name == GrowWire.Header.authorization }?.value == "<redacted>")
        #expect(entry.requestHeaders.first { $0.name == GrowWire.Header.idempotencyKey }?.value == "k-1")
        #expect(entry.responseBody?.contains(#""customerToken": "<redacted>""#) == true)
        let encoded = String(decoding: try JSONEncoder().encode(recorder.entries), as: UTF8.self)
        #expect(!encoded.contains(Fixture.tokenA))
        #expect(!encoded.contains("gg_sk_"))
    }

    @Test func relayCredentialsAreRedactedInHeadersAndWhereverTheyAppearInBodies() async throws {
        let echo = #"{"debug": "got Bearer \#(Fixture.tokenA) and \#(Fixture.serverKeyText)", "raw": "\#(Fixture.tokenA)"}"#
        let recorder = RecordingTransport(wrapping: StubTransport { request in
            request.path == GrowWire.Path.session ? Fixture.json(200, Fixture.session("c_A")) : Fixture.json(400, echo)
        }, dialect: GrowWire.dialect)
        let client = GrowClient(configuration: try Fixture.configuration(), transport: recorder)
        try await client.identify(customerToken: Fixture.tokenA)
        _ = try? await client.recoverNativeOrders(using: try GrowRelayCredentials(serverKey: Fixture.serverKeyText),
                                                  transactions: [GrowWireRecoverTransaction(store: "apple", transactionId: "2000", signedTransaction: Self.jws)])
        let relay = try #require(recorder.entries.last)
        #expect(relay.requestHeaders.first { $0.name == GrowWire.Header.serverKey }?.value == "<redacted>")
        #expect(relay.requestHeaders.first { $0.name == GrowWire.Header.authorization }?.value == "<redacted>")
        #expect(relay.requestBody?.contains(Self.jws) == false)
        #expect(relay.requestBody?.contains(#""transactionId":"2000""#) == true)
        let text = String(decoding: try JSONEncoder().encode(recorder.entries), as: UTF8.self)
        #expect(!text.contains(Fixture.tokenA))
        #expect(!text.contains("gg_sk_"))
    }

    @Test(arguments: [
        (#"{"customerToken":"abc\"def","x":1}"#, #"{"customerToken":"<redacted>","x":1}"#),
        ("key gg_sk_live_AbC-9_z end", "key <redacted> end"),
        ("Authorization: Bearer abc.def-ghi", "Authorization: Bearer <redacted>"),
        ("jws \(jws) end", "jws <redacted> end"),
        (#"{"amount": "12345678901234567.89", "eventId": "9007199254740993"}"#, #"{"amount": "12345678901234567.89", "eventId": "9007199254740993"}"#),
    ])
    func theRedactorReplacesCredentialsAndLeavesEverythingElseByteForByte(_ input: String, _ expected: String) {
        #expect(GrowWire.redactor.redact(input) == expected)
    }

    @Test func transportFailuresAreRecordedAndRethrown() async throws {
        let faults = FaultInjectingTransport(wrapping: StubTransport.silent())
        faults.inject(.timeout(after: .zero), when: .any)
        let recorder = RecordingTransport(wrapping: faults, dialect: GrowWire.dialect)
        let request = HTTPRequest(method: .get, url: URL(string: "https://sandbox.example.com/v1/holdings?limit=5")!)
        await #expect(throws: TransportError.timeout) { try await recorder.send(request) }
        let entry = try #require(recorder.entries.first)
        #expect(entry.error == "timeout")
        #expect(entry.status == nil)
        #expect(entry.path == "/v1/holdings?limit=5")
        #expect(entry.summary.hasPrefix("GET /v1/holdings?limit=5 → error: timeout"))
    }

    @Test func entriesStreamToTheCallbackAndDrainForgetsThem() async throws {
        final class Box: @unchecked Sendable {
            // `lock` guards `paths`.
            let lock = NSLock()
            var paths: [String] = []
        }
        let box = Box()
        let recorder = RecordingTransport(wrapping: StubTransport { _ in HTTPResponse(status: 204) }, dialect: GrowWire.dialect, onEntry: { entry in
            box.lock.withLock { box.paths.append(entry.path) }
        })
        for path in ["/a", "/b"] {
            _ = try await recorder.send(HTTPRequest(method: .get, url: URL(string: "https://h.example\(path)")!))
        }
        #expect(box.lock.withLock { box.paths } == ["/a", "/b"])
        #expect(recorder.drain().map(\.sequence) == [1, 2])
        #expect(recorder.entries.isEmpty)
    }

    @Test func printingARequestNeverShowsItsCredentials() {
        var request = HTTPRequest(method: .get, url: URL(string: "https://h.example/v1/session")!)
        request.headers[GrowWire.Header.authorization] = "Bearer \(Fixture.tokenA)"
        request.headers[GrowWire.Header.serverKey] = Fixture.serverKeyText
        var dumped = ""
        dump(request, to: &dumped)
        for text in ["\(request)", String(reflecting: request), dumped] {
            #expect(!text.contains(Fixture.tokenA))
            #expect(!text.contains("gg_sk_"))
        }
    }
}
