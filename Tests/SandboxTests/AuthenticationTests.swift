import Foundation
import GrowClient
import Testing
@testable import Sandbox

@Suite struct AuthenticationTests {
    @Test func sessionIdentifiesTheCustomerOfAFreshToken() throws {
        let harness = try Harness()
        let token = try harness.issueToken("c_1001", ttlSeconds: 900)
        let session = try decode(GrowWireSession.self, harness.get(GrowWire.Path.session, auth: .customer(token)), status: 200)
        #expect(session == GrowWireSession(customerId: "c_1001", projectId: harness.project, environment: "sandbox",
                                       expiresAt: "2026-11-30T08:15:00Z"))
    }

    @Test func expiredTokenIsRejectedWithTokenExpired() throws {
        let harness = try Harness()
        let token = try harness.issueToken(ttlSeconds: 60)
        harness.clock.advance(seconds: 59)
        #expect(harness.get(GrowWire.Path.session, auth: .customer(token)).status == 200)
        harness.clock.advance(seconds: 1)
        let response = harness.get(GrowWire.Path.session, auth: .customer(token))
        #expect(response.status == 401)
        #expect(errorCode(response) == "token_expired")
    }

    @Test(arguments: [nil, "Bearer not-a-token", "Basic abc", "Bearer "])
    func unknownOrMissingTokenIsRejectedWithTokenInvalid(authorization: String?) throws {
        let harness = try Harness()
        let response = harness.get(GrowWire.Path.holdings, auth: authorization.map { .raw($0) } ?? .none)
        #expect(response.status == 401)
        #expect(errorCode(response) == "token_invalid")
    }

    @Test func validTokenUnderAnotherProjectOrEnvironmentIsAScopeMismatch() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let otherProject = harness.get(GrowWire.Path.session, auth: .customer(token), project: UUID().uuidString.lowercased())
        #expect(otherProject.status == 403)
        #expect(errorCode(otherProject) == "scope_mismatch")
        let production = harness.get(GrowWire.Path.session, auth: .customer(token), environment: "production")
        #expect(production.status == 403)
        #expect(errorCode(production) == "scope_mismatch")
    }

    @Test func serverKeyUnderAnotherProjectIsAScopeMismatch() throws {
        let harness = try Harness()
        let response = try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_1", ttlSeconds: 60),
                                         project: UUID().uuidString.lowercased())
        #expect(response.status == 403)
        #expect(errorCode(response) == "scope_mismatch")
    }

    @Test func missingOrMalformedScopeHeadersAreInvalidRequests() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let missing = harness.send("GET", GrowWire.Path.session, auth: .customer(token), omitScope: true)
        let upperCase = harness.get(GrowWire.Path.session, auth: .customer(token), project: harness.project.uppercased())
        let noEnvironment = harness.get(GrowWire.Path.session, auth: .customer(token), environment: nil)
        for response in [missing, upperCase, noEnvironment] {
            #expect(response.status == 400)
            #expect(errorCode(response) == "invalid_request")
        }
    }

    @Test func serverEndpointsRefuseAWrongKeyAndACustomerToken() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        for auth in [Harness.Auth.none, .raw("Bearer gg_sk_wrong"), .customer(token)] {
            let response = try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_1", ttlSeconds: 60), auth: auth)
            #expect(response.status == 401)
            #expect(errorCode(response) == "server_key_invalid")
        }
    }

    @Test(arguments: [1, 86_400])
    func tokenLifetimesAtTheLimitsAreAccepted(ttl: Int) throws {
        let harness = try Harness()
        #expect(try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_1", ttlSeconds: ttl)).status == 201)
    }

    @Test(arguments: [0, -5, 86_401])
    func tokenLifetimesOutsideOneSecondToOneDayAreInvalid(ttl: Int) throws {
        let harness = try Harness()
        let response = try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_1", ttlSeconds: ttl))
        #expect(response.status == 400)
        #expect(errorCode(response) == "invalid_request")
    }

    @Test func relayNeedsBothTheCustomerTokenAndTheServerKey() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let body = GrowWireRecoverRequest(synchronizeStore: false, transactions: [])
        let tokenOnly = try harness.post(GrowWire.Path.relayRecover, body, auth: .customer(token))
        #expect(tokenOnly.status == 401)
        #expect(errorCode(tokenOnly) == "server_key_invalid")
        let keyOnly = try harness.post(GrowWire.Path.relayRecover, body, auth: .server, serverKeyHeader: harness.backend.serverKey)
        #expect(keyOnly.status == 401)
        #expect(errorCode(keyOnly) == "token_invalid")
        let keyAsBearerOnly = try harness.post(GrowWire.Path.relayRecover, body, auth: .server)
        #expect(keyAsBearerOnly.status == 401)
        let both = try harness.post(GrowWire.Path.relayRecover, body, auth: .customer(token), serverKeyHeader: harness.backend.serverKey)
        #expect(both.status == 200)
    }

    @Test func everyResponseSaysItComesFromAnEmulatorAndIsJSON() throws {
        let harness = try Harness()
        for response in [harness.get(GrowWire.Path.session, auth: .none), harness.get("/nowhere", auth: .none),
                         try harness.post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: "c_1", ttlSeconds: 60))] {
            #expect(response.header("groovegrow-sandbox-kind") == "emulator")
            #expect(response.header("content-type") == "application/json")
        }
    }

    @Test func configurationRefusesAServerKeyWithoutThePrefix() {
        #expect(throws: SandboxError.self) { try GrooveGrowBackend(configuration: .init(serverKey: "sk_live_123")) }
    }

    @Test func defaultServerKeyIsPrefixedAndThirtyTwoBase62Characters() throws {
        let key = GrooveGrowConfiguration().serverKey
        #expect(key.hasPrefix("gg_sk_"))
        let body = key.dropFirst(6)
        #expect(body.count == 32)
        #expect(body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
}
