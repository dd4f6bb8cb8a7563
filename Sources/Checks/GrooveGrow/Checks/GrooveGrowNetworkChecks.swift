import Foundation
import GrowClient
import HTTPCore

/// Offline and timeout: failures stay retryable failures, and a retry is the original request, applied once.
enum GrooveGrowNetworkChecks {
    static let all: [CheckDefinition<GrooveGrowHarness>] = [
        CheckDefinition(id: "network.failure-is-retryable", body: failureIsRetryable),
        CheckDefinition(id: "network.retry-replays-original", body: retryReplaysOriginal),
    ]

    static func failureIsRetryable(_ run: GrooveGrowHarness) async throws {
        let customerId = run.customerId
        try await run.seedHoldingsIfEmulator(customerId)
        let (client, _) = try await run.identifiedSessionClient(customerId)
        let baseline = try await step("read holdings") { try await client.readHoldings() }
        let holdings = RequestMatcher.path(GrowWire.Path.holdings, method: .get)

        run.faults.inject(.refuseConnection, when: holdings, repetition: .once)
        try await requireRetryableFailure(client, baseline: baseline, label: "A refused connection")
        run.faults.inject(.timeout(after: .zero), when: holdings, repetition: .once)
        try await requireRetryableFailure(client, baseline: baseline, label: "A timeout")

        if run.isEmulator {
            let control = try run.emulator()
            try await step("install a 503 fault on the emulator") {
                try await control.fault(GrowWireEmulatorFault(path: GrowWire.Path.holdings, delayMs: nil, failNext: 1, status: 503))
            }
            let checked = await outcome { try await requireRetryableFailure(client, baseline: baseline, label: "A 503 from the Sandbox") }
            try await step("clear the emulator fault") {
                try await control.fault(GrowWireEmulatorFault(path: GrowWire.Path.holdings, delayMs: 0, failNext: 0, status: nil))
            }
            if case .failure(let error) = checked { throw error }
        }
    }

    /// Fails unless `readHoldings` fails retryably and leaves the snapshot exactly as it was.
    private static func requireRetryableFailure(_ client: any SessionClient, baseline: GrowWireHoldings, label: String) async throws {
        let result = await outcome { try await client.readHoldings() }
        switch result {
        case .success:
            throw CheckFailure("\(label) was reported as success: readHoldings returned holdings.")
        case .failure(let error):
            try require((error as? GrowClientError)?.isRetryable == true,
                        "\(label) surfaced as a non-retryable error (\(summary(error))); it must be retryable.")
        }
        let snapshot = await client.snapshot
        try require(snapshot == baseline, "\(label) changed the holdings snapshot; a failure must leave the last good holdings in place.")
    }

    static func retryReplaysOriginal(_ run: GrooveGrowHarness) async throws {
        if run.isEmulator {
            try await replayFunnel(run)
        } else {
            try await replayTokenIssue(run)
        }
    }

    /// On an emulator: `POST /v1/funnels` consumes a run token, so a second effect is visible.
    private static func replayFunnel(_ run: GrooveGrowHarness) async throws {
        let control = try run.emulator()
        let customerId = run.customerId
        let token = try await run.token(for: customerId)
        let client = run.growClient()
        _ = try await step("identify as '\(customerId)'") { try await client.identify(customerToken: token.customerToken) }
        let purchaseStep = try GrowEmulatorPurchase.step()
        let runToken = try await step("create a funnel run token on the emulator") {
            try await control.runToken(GrowWireEmulatorRunTokenRequest(customerId: customerId, steps: [purchaseStep]))
        }
        let pending = try await client.prepareFunnel(runToken: runToken)
        run.faults.inject(.loseResponse, when: .path(GrowWire.Path.funnels, method: .post), repetition: .once)
        try await requireLost(await outcome { try await client.send(pending) }, what: "POST /v1/funnels")
        let retried = try await step("retry POST /v1/funnels with the same key and body") { try await client.retry(pending) }

        let original: GrowWireFunnel = try originalResponse(run, path: GrowWire.Path.funnels)
        try require(retried.funnelId == original.funnelId && retried.steps.map(\.orderId) == original.steps.map(\.orderId),
                    "The retry took effect a second time: the lost original created funnel '\(original.funnelId)', the retry returned '\(retried.funnelId)'.")
    }

    /// On a hosted Sandbox: `POST /v1/server/customer-tokens`; a replay must return the very token first issued.
    private static func replayTokenIssue(_ run: GrooveGrowHarness) async throws {
        let server = try run.serverClient(for: "to replay POST /v1/server/customer-tokens on a hosted Sandbox")
        let pending = try server.prepareIssueCustomerToken(customerId: run.customerId, ttlSeconds: 900)
        run.faults.inject(.loseResponse, when: .path(GrowWire.Path.customerTokens, method: .post), repetition: .once)
        try await requireLost(await outcome { try await server.send(pending) }, what: "POST /v1/server/customer-tokens")
        let retried = try await step("retry POST /v1/server/customer-tokens with the same key and body") { try await server.send(pending) }
        run.remember(secret: retried.customerToken)
        let original: GrowWireIssuedToken = try originalResponse(run, path: GrowWire.Path.customerTokens)
        run.remember(secret: original.customerToken)
        try require(retried.customerToken == original.customerToken && retried.expiresAt == original.expiresAt,
                    "The retry took effect a second time: it issued a different customer token than the lost original.")
    }

    private static func requireLost<T>(_ result: Result<T, any Error>, what: String) async throws {
        switch result {
        case .success:
            throw CheckFailure("Internal: the injected lost response of \(what) was delivered anyway.")
        case .failure(let error):
            try require((error as? GrowClientError)?.isRetryable == true,
                        "A lost response of \(what) surfaced as a non-retryable error (\(summary(error))); it must be retryable.")
        }
    }

    /// Checks both attempts reached the Sandbox with the same key and body, and decodes the original's answer.
    private static func originalResponse<T: Decodable>(_ run: GrooveGrowHarness, path: String) throws -> T {
        let attempts = run.capture.exchanges(path: path).filter { $0.request.method == .post }
        try require(attempts.count == 2, "Expected the original and one retry of POST \(path) to reach the Sandbox; \(attempts.count) did.")
        let (first, second) = (attempts[0], attempts[1])
        try require(first.request.headers[GrowWire.Header.idempotencyKey] != nil
                        && first.request.headers[GrowWire.Header.idempotencyKey] == second.request.headers[GrowWire.Header.idempotencyKey],
                    "The retry of POST \(path) did not carry the original Idempotency-Key.")
        try require(first.request.body == second.request.body, "The retry of POST \(path) did not carry the original body.")
        guard let response = first.response, (200...299).contains(response.status),
              let decoded = try? JSONDecoder().decode(T.self, from: response.body) else {
            throw CheckFailure("The Sandbox did not accept the original POST \(path) (status \(first.response.map { String($0.status) } ?? "none")).")
        }
        return decoded
    }
}
