import Foundation
import RFC3339Time
import GrowClient

/// First connection: identify, and the three ways a session must be refused.
enum GrooveGrowSessionChecks {
    static let all: [CheckDefinition<GrooveGrowHarness>] = [
        CheckDefinition(id: "session.identify", body: identify),
        CheckDefinition(id: "session.rejects-invalid", body: rejectsInvalid),
        CheckDefinition(id: "session.rejects-expired", body: rejectsExpired),
        CheckDefinition(id: "session.rejects-cross-scope", body: rejectsCrossScope),
    ]

    static func identify(_ run: GrooveGrowHarness) async throws {
        let customerId = run.customerId
        let (client, session) = try await run.identifiedSessionClient(customerId)
        try require(session.customerId == customerId,
                    "The session names customer '\(session.customerId)', not the expected '\(customerId)'.")
        try require(session.projectId.lowercased() == run.configuration.projectHeaderValue,
                    "The session names project '\(session.projectId)', not the campaign's project '\(run.configuration.projectHeaderValue)'.")
        try require(session.environment == GrowWire.environment,
                    "The session names environment '\(session.environment)', not '\(GrowWire.environment)'.")
        try require(await client.currentSession == session, "The client does not hold the session the Sandbox returned.")
    }

    static func rejectsInvalid(_ run: GrooveGrowHarness) async throws {
        let unknown = "growcert" + UUID().uuidString.replacingOccurrences(of: "-", with: "") + "0unknown"
        for (label, token) in [("a malformed token", "not a token %%"), ("an unknown token", unknown)] {
            run.remember(secret: token)
            let client = run.sessionClient()
            switch await outcome({ try await client.identify(customerToken: token) }) {
            case .success:
                throw CheckFailure("The Sandbox accepted \(label): identify succeeded where 401 token_invalid is required.")
            case .failure(let error):
                try require((error as? GrowClientError) == .unauthorized(code: .tokenInvalid),
                            "\(label.prefix(1).uppercased() + label.dropFirst()) got \(summary(error)) instead of 401 token_invalid.")
            }
            let held = await leftovers(of: client)
            try require(held.isEmpty, "After refusing \(label) the client still holds \(held.joined(separator: ", ")).")
        }
    }

    static func rejectsExpired(_ run: GrooveGrowHarness) async throws {
        let token = try await run.token(for: run.customerId, ttlSeconds: 1)
        guard let expiresAt = RFC3339.date(token.expiresAt) else {
            throw CheckFailure("The token's expiresAt '\(token.expiresAt)' is not an RFC 3339 timestamp.")
        }
        // Expiry is the Sandbox's to judge, on its own clock: the wait is measured on it (the latest answer's Date header),
        // so a QA machine whose clock is off neither skips the wait nor waits for hours. A whole second past expiresAt, since
        // the contract's timestamps have second precision, and one more for the Date header's.
        let offset = await run.sandboxClockOffset()
        let wait = expiresAt.timeIntervalSince(run.context.clock.now().addingTimeInterval(offset)) + 2.0
        try require(wait <= 120, "The token expires at \(token.expiresAt), more than two minutes away, although a 1-second lifetime was asked for. The token command must honour its TTL argument.")
        if wait > 0 {
            try await run.context.clock.sleep(.milliseconds(Int((wait * 1000).rounded(.up))))
        }
        let client = run.sessionClient()
        switch await outcome({ try await client.identify(customerToken: token.customerToken) }) {
        case .success:
            throw CheckFailure("The Sandbox accepted a token after its expiresAt (\(token.expiresAt)); it must answer 401 token_expired.")
        case .failure(let error):
            try require((error as? GrowClientError) == .unauthorized(code: .tokenExpired),
                        "The expired token got \(summary(error)) instead of 401 token_expired.")
        }
        let held = await leftovers(of: client)
        try require(held.isEmpty, "After refusing the expired token the client still holds \(held.joined(separator: ", ")).")
    }

    static func rejectsCrossScope(_ run: GrooveGrowHarness) async throws {
        let token = try await run.token(for: run.customerId)
        let own = run.sessionClient()
        _ = try await step("identify under the token's own scope (the control for this check)") {
            try await own.identify(customerToken: token.customerToken)
        }
        var otherProject = UUID()
        while otherProject == run.configuration.project { otherProject = UUID() }
        let scopes = [("another project UUID (\(otherProject.uuidString.lowercased()))", try run.configuration.withScope(project: otherProject)),
                      ("environment 'production'", try run.configuration.withScope(environment: "production"))]
        for (label, configuration) in scopes {
            let client = run.sessionClient(configuration: configuration)
            switch await outcome({ try await client.identify(customerToken: token.customerToken) }) {
            case .success:
                throw CheckFailure("The Sandbox accepted a valid token under \(label); it must answer 403 scope_mismatch.")
            case .failure(let error):
                try require((error as? GrowClientError) == .scopeMismatch,
                            "The token under \(label) got \(summary(error)) instead of 403 scope_mismatch.")
            }
        }
    }
}
