import CherryClient
import Foundation
import Testing
@testable import Sandbox

/// The CherrySub emulator's publishable key, credentials and error bodies, over HTTP.
@Suite struct CherrySubAuthenticationTests {
    @Test func everyResponseErrorsIncludedCarriesTheEmulatorKind() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let responses = [
            try await h.get(CherryWire.Path.currentProductSet, query: ["appUserId": "u_1001"], auth: .token(token)),
            try await h.get("/v1/nothing-here", auth: .none),
            try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .none, publishableKey: .none),
            try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token("nope")),
            try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token)),
            try await h.post(CherryWire.Path.emulatorReset, CherryEmulatorReset()),
        ]
        #expect(responses.map(\.status) == [200, 404, 400, 401, 404, 200])
        for response in responses {
            #expect(response.header(CherryWire.Header.environmentKind) == CherryWire.emulatorKind, "\(response.status)")
        }
    }

    @Test func errorBodiesCarryCodeMessageAndRetryable() async throws {
        let h = try CherryHarness()
        let response = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token("unknown"))
        let error = try #require(response.error)
        #expect(response.status == 401)
        #expect(error.code == "token_invalid")
        #expect(!error.message.isEmpty)
        #expect(error.retryable == false)
        #expect(response.header(CherryWire.Header.contentType) == CherryWire.jsonMediaType)
        let raw = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: [String: Any]])
        #expect(Set(raw["error"]?.keys.map { $0 } ?? []) == ["code", "message", "retryable"])
    }

    @Test func aMissingPublishableKeyIsInvalidRequestBeforeAnyCredentialIsLookedAt() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        for auth in [CherryHarness.Auth.none, .token("unknown"), .token(token), .secret] {
            let response = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: auth, publishableKey: .none)
            #expect(response.status == 400)
            #expect(response.code == "invalid_request")
        }
        let malformed = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token), publishableKey: "pk_live_1")
        #expect(malformed.status == 400)
        #expect(malformed.code == "invalid_request")
    }

    @Test func aMissingOrUnknownCredentialIs401BeforeAKeyMismatch() async throws {
        let h = try CherryHarness()
        for auth in [CherryHarness.Auth.none, .token("unknown"), .raw("Basic abc")] {
            let response = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: auth, publishableKey: "iap_pk_anotherApp")
            #expect(response.status == 401)
            #expect(response.code == "token_invalid")
        }
        for auth in [CherryHarness.Auth.none, .raw("Bearer iap_sk_notTheBrokers"), .token("x")] {
            let response = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: 60),
                                            auth: auth, publishableKey: "iap_pk_anotherApp")
            #expect(response.status == 401)
            #expect(response.code == "secret_key_invalid")
        }
    }

    @Test func aCredentialOfAnotherAppThanThePublishableKeyIsKeyMismatch() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let customer = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token), publishableKey: "iap_pk_anotherApp")
        #expect(customer.status == 403)
        #expect(customer.code == "key_mismatch")
        let broker = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: 60),
                                      publishableKey: "iap_pk_anotherApp")
        #expect(broker.status == 403)
        #expect(broker.code == "key_mismatch")
    }

    @Test func aTokenOfAnotherAppUserIsAppUserMismatchOnEveryCustomerEndpoint() async throws {
        let h = try CherryHarness()
        let token = try await h.token("u_1001")
        let purchase = try await h.storePurchase()
        let responses = [
            try await h.get(CherryWire.Path.subscriber("u_2002"), auth: .token(token)),
            try await h.get(CherryWire.Path.ledger("u_2002"), auth: .token(token)),
            try await h.get(CherryWire.Path.currentProductSet, query: ["appUserId": "u_2002"], auth: .token(token)),
            try await h.submit(purchase.signedTransaction, as: "u_2002", token: token),
        ]
        #expect(responses.map(\.status) == [403, 403, 403, 403])
        #expect(responses.map(\.code) == Array(repeating: "app_user_mismatch", count: 4))
        // Nothing was recorded for u_2002 or u_1001.
        let other = try await h.get(CherryWire.Path.serverSubscriber("u_2002"), auth: .secret)
        #expect(other.code == "subscriber_not_found")
        let missing = try await h.get(CherryWire.Path.currentProductSet, auth: .token(token))
        #expect(missing.status == 400)
        #expect(missing.code == "invalid_request")
    }

    @Test func customerTokensExpireOnTheEmulatorClock() async throws {
        let h = try CherryHarness()
        let issued = try await h.issueToken("u_1001", ttlSeconds: 900)
        #expect(issued.expiresAt == "2026-11-30T08:15:00Z")
        #expect(issued.appUserId == "u_1001")
        #expect(issued.tokenId.hasPrefix("tok_"))
        try await h.advance(899)
        #expect(try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(issued.customerToken)).code == "subscriber_not_found")
        try await h.advance(1)
        let expired = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(issued.customerToken))
        #expect(expired.status == 401)
        #expect(expired.code == "token_expired")
        // A token issued now counts from the moved clock.
        #expect(try await h.issueToken("u_1001", ttlSeconds: 60).expiresAt == "2026-11-30T08:16:00Z")
    }

    @Test func aRevokedTokenIsTokenRevoked() async throws {
        let h = try CherryHarness()
        let issued = try await h.issueToken("u_1001")
        let other = try await h.issueToken("u_1001")
        let revoke = try await h.post(CherryWire.Path.revokeToken(issued.tokenId), CherryEmulatorReset())
        #expect(revoke.status == 204)
        #expect(revoke.body.isEmpty)
        #expect(revoke.header(CherryWire.Header.environmentKind) == CherryWire.emulatorKind)
        let response = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(issued.customerToken))
        #expect(response.status == 401)
        #expect(response.code == "token_revoked")
        #expect(try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(other.customerToken)).code == "subscriber_not_found")
        let unknown = try await h.post(CherryWire.Path.revokeToken("tok_999"), CherryEmulatorReset())
        #expect(unknown.status == 404)
        #expect(unknown.code == "not_found")
    }

    @Test(arguments: [0, 86_401, -5])
    func aTokenLifetimeOutsideOneToADayIsInvalid(ttl: Int) async throws {
        let h = try CherryHarness()
        let response = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: ttl))
        #expect(response.status == 400)
        #expect(response.code == "invalid_request")
    }

    @Test func emulatorControlsNeedTheSecretKey() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let response = try await h.post(CherryWire.Path.emulatorReset, CherryEmulatorReset(), auth: .token(token))
        #expect(response.status == 401)
        #expect(response.code == "secret_key_invalid")
    }

    @Test func unknownPathsAreNotFoundAndMalformedBodiesInvalid() async throws {
        let h = try CherryHarness()
        let unknown = try await h.get("/v1/unknown", auth: .secret)
        #expect(unknown.status == 404)
        #expect(unknown.code == "not_found")
        let malformed = try await h.send("POST", CherryWire.Path.customerTokens, auth: .secret, body: Data("{\"appUserId\":".utf8))
        #expect(malformed.status == 400)
        #expect(malformed.code == "invalid_request")
        let numericId = try await h.send("POST", CherryWire.Path.customerTokens, auth: .secret,
                                         body: Data("{\"appUserId\":1001,\"ttlSeconds\":60}".utf8))
        #expect(numericId.code == "invalid_request")
    }

    @Test func injectedFaultsAnswerRateLimitedOrUnavailableAndDelaysGoToTheSleeper() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let path = CherryWire.Path.subscriber("u_1001")
        _ = try await h.post(CherryWire.Path.emulatorFaults, CherryEmulatorFault(path: path, delayMs: nil, failNext: 1, status: 429))
        let limited = try await h.get(path, auth: .token(token))
        #expect(limited.status == 429)
        #expect(limited.error?.code == "rate_limited")
        #expect(limited.error?.retryable == true)
        #expect(limited.header(CherryWire.Header.retryAfter) == "1")
        _ = try await h.post(CherryWire.Path.emulatorFaults, CherryEmulatorFault(path: path, delayMs: 250, failNext: 1, status: 502))
        let unavailable = try await h.get(path, auth: .token(token))
        #expect(unavailable.status == 502)
        #expect(unavailable.error?.code == "unavailable")
        #expect(unavailable.error?.retryable == true)
        #expect(unavailable.header(CherryWire.Header.environmentKind) == CherryWire.emulatorKind)
        #expect(try await h.get(path, auth: .token(token)).code == "subscriber_not_found")
        #expect(h.sleeper.delays == [250, 250])
        let control = try await h.post(CherryWire.Path.emulatorFaults,
                                       CherryEmulatorFault(path: CherryWire.Path.emulatorReset, delayMs: 10, failNext: nil, status: nil))
        #expect(control.code == "invalid_request")
    }
}
