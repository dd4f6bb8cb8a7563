import Foundation
import GrowClient
import Testing
@testable import Sandbox

@Suite struct IdempotencyAndFaultTests {
    @Test func replayingAKeyWithTheSameBodyReturnsTheOriginalWithoutAnotherEffect() throws {
        let harness = try Harness()
        let body = GrowWireTokenRequest(customerId: "c_1", ttlSeconds: 60)
        let first = try harness.post(GrowWire.Path.customerTokens, body, idempotencyKey: "same")
        let replay = try harness.post(GrowWire.Path.customerTokens, body, idempotencyKey: "same")
        #expect(first.status == 201)
        #expect(replay.status == 201)
        #expect(replay.body == first.body)
        let fresh = try harness.post(GrowWire.Path.customerTokens, body, idempotencyKey: "other")
        #expect(try decode(GrowWireIssuedToken.self, fresh).customerToken != decode(GrowWireIssuedToken.self, first).customerToken)
    }

    @Test func reusingAKeyWithADifferentBodyIsAConflict() throws {
        let harness = try Harness()
        _ = try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_1", ttlSeconds: 60), idempotencyKey: "k")
        let conflict = try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_2", ttlSeconds: 60), idempotencyKey: "k")
        #expect(conflict.status == 409)
        #expect(errorCode(conflict) == "idempotency_conflict")
    }

    @Test func idempotencyKeysAreScopedPerCredential() throws {
        let harness = try Harness()
        let alice = try harness.issueToken("c_alice")
        let bob = try harness.issueToken("c_bob")
        let aliceFunnel = try decode(GrowWireEmulatorRunToken.self, try harness.post(GrowWire.Path.emulatorRunTokens,
            GrowWireEmulatorRunTokenRequest(customerId: "c_alice", steps: [harness.step(.apple)])))
        let bobFunnel = try decode(GrowWireEmulatorRunToken.self, try harness.post(GrowWire.Path.emulatorRunTokens,
            GrowWireEmulatorRunTokenRequest(customerId: "c_bob", steps: [harness.step(.apple)])))
        let a = try harness.post(GrowWire.Path.funnels, GrowWireFunnelRequest(runToken: aliceFunnel.runToken), auth: .customer(alice), idempotencyKey: "shared")
        let b = try harness.post(GrowWire.Path.funnels, GrowWireFunnelRequest(runToken: bobFunnel.runToken), auth: .customer(bob), idempotencyKey: "shared")
        #expect(a.status == 201)
        #expect(b.status == 201)
        #expect(try decode(GrowWireFunnel.self, b).customerId == "c_bob")
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), "caf\u{e9}", "tab\there"])
    func postWithoutAUsableIdempotencyKeyIsInvalid(key: String) throws {
        let harness = try Harness()
        let response = try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_1", ttlSeconds: 60), idempotencyKey: key)
        #expect(response.status == 400)
        #expect(errorCode(response) == "invalid_request")
    }

    @Test func faultFailsTheNextRequestsToItsPathThenClears() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        _ = try harness.post(GrowWire.Path.emulatorFaults, GrowWireEmulatorFault(path: GrowWire.Path.holdings, delayMs: nil, failNext: 2, status: nil))
        let first = harness.get(GrowWire.Path.holdings, auth: .customer(token))
        let second = harness.get(GrowWire.Path.holdings, auth: .customer(token))
        let third = harness.get(GrowWire.Path.holdings, auth: .customer(token))
        #expect([first.status, second.status, third.status] == [Int]([503, 503, 200]))
        #expect(errorCode(first) == "unavailable")
        #expect(try JSONDecoder().decode(GrowWireErrorBody.self, from: first.body).error.retryable)
        #expect(harness.get(GrowWire.Path.session, auth: .customer(token)).status == 200)
    }

    @Test func rateLimitFaultCarriesRetryAfter() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        _ = try harness.post(GrowWire.Path.emulatorFaults, GrowWireEmulatorFault(path: GrowWire.Path.session, delayMs: nil, failNext: 1, status: 429))
        let response = harness.get(GrowWire.Path.session, auth: .customer(token))
        #expect(response.status == 429)
        #expect(errorCode(response) == "rate_limited")
        #expect(response.header("Retry-After") == "1")
    }

    @Test func delayIsHandedToTheServerUntilClearedWithZero() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        _ = try harness.post(GrowWire.Path.emulatorFaults, GrowWireEmulatorFault(path: GrowWire.Path.session, delayMs: 250, failNext: nil, status: nil))
        #expect(harness.get(GrowWire.Path.session, auth: .customer(token)).delayMilliseconds == 250)
        #expect(harness.get(GrowWire.Path.holdings, auth: .customer(token)).delayMilliseconds == 0)
        _ = try harness.post(GrowWire.Path.emulatorFaults, GrowWireEmulatorFault(path: GrowWire.Path.session, delayMs: 0, failNext: nil, status: nil))
        #expect(harness.get(GrowWire.Path.session, auth: .customer(token)).delayMilliseconds == 0)
    }

    @Test func aFailedPostIsNotRememberedSoItsRetrySucceeds() throws {
        let harness = try Harness()
        _ = try harness.post(GrowWire.Path.emulatorFaults, GrowWireEmulatorFault(path: GrowWire.Path.customerTokens, delayMs: nil, failNext: 1, status: 502))
        let body = GrowWireTokenRequest(customerId: "c_1", ttlSeconds: 60)
        #expect(try harness.post(GrowWire.Path.customerTokens, body, idempotencyKey: "retry").status == 502)
        #expect(try harness.post(GrowWire.Path.customerTokens, body, idempotencyKey: "retry").status == 201)
    }

    @Test func unknownPathsWrongMethodsAndBadJSONGetContractErrors() throws {
        let harness = try Harness()
        let unknown = harness.send("GET", "/v2/whatever", auth: .server)
        #expect(unknown.status == 404)
        #expect(errorCode(unknown) == "not_found")
        let wrongMethod = harness.send("DELETE", GrowWire.Path.session, auth: .server)
        #expect(wrongMethod.status == 400)
        #expect(errorCode(wrongMethod) == "invalid_request")
        let badJSON = harness.send("POST", GrowWire.Path.customerTokens, auth: .server, body: Data("{\"customerId\": ".utf8))
        #expect(badJSON.status == 400)
        #expect(errorCode(badJSON) == "invalid_request")
        let garbage = harness.send("POST", GrowWire.Path.customerTokens, auth: .server, body: Data([0xFF, 0x00, 0xFE]))
        #expect(garbage.status == 400)
    }

    @Test func errorMessagesNeverContainTheServerKey() throws {
        let harness = try Harness()
        let key = harness.backend.serverKey
        let responses = [
            harness.send("POST", GrowWire.Path.customerTokens, auth: .raw("Bearer " + key + "x"), body: Data("{}".utf8)),
            harness.send("POST", GrowWire.Path.customerTokens, auth: .server, body: Data("{}".utf8)),
            harness.get(GrowWire.Path.session, auth: .server),
        ]
        for response in responses {
            #expect(!String(decoding: response.body, as: UTF8.self).contains(key))
        }
    }
}
