import Evidence
import Foundation
import GrowClient
import HTTPCore
import Testing
@testable import Checks

/// Makes the emulator claim to be hosted, so the checks take their hosted-target paths (still over loopback).
private func claimingHosted() -> BreakingTransport {
    BreakingTransport(wrapping: CurlTransport(), response: { _, response in
        var response = response
        response.headers[GrowWire.Header.sandboxKind] = "hosted"
        return response
    })
}

/// Issues tokens with the emulator's server key, outside the check's transport, the way a --token-command would.
private func tokenProvider(_ target: EmulatorTarget) -> CheckCredentials.TokenProvider {
    let server = GrowServerClient(configuration: target.configuration, serverKey: target.serverKey, transport: CurlTransport())
    return { customerId, ttl in
        let issued = try await server.issueCustomerToken(customerId: customerId, ttlSeconds: ttl ?? 900)
        return IssuedCustomerToken(customerToken: issued.customerToken, expiresAt: issued.expiresAt)
    }
}

@Suite struct HostedTargetTests {
    struct Missing: Sendable, CustomTestStringConvertible {
        let checkId: String
        let reason: String
        let need: CheckNeed
        var tokenOnly = false
        var purchase: RecordedPurchase? = nil
        var testDescription: String { "\(checkId) says: \(reason)" }
    }

    static let missing: [Missing] = [
        Missing(checkId: "switch.late-response-dropped", reason: "needs a second customer.", need: .secondCustomer),
        Missing(checkId: "purchase.delivered-once", reason: "needs the purchase made on the device: its order id and transaction id", need: .devicePurchase),
        Missing(checkId: "restore.no-double-grant", reason: "needs the store-signed transaction recorded on the run", need: .storeTransaction,
                purchase: RecordedPurchase(orderId: "o_1", transactionId: "2000000847061981", store: "apple", signedTransaction: nil)),
        Missing(checkId: "holdings.match-console", reason: "needs GROWCERT_SERVER_KEY for the console customer detail", need: .serverKey, tokenOnly: true),
        Missing(checkId: "relay.requires-double-auth", reason: "needs GROWCERT_SERVER_KEY to call the relay", need: .serverKey, tokenOnly: true),
    ]

    @Test(arguments: missing)
    func aCheckWithoutWhatItNeedsFailsWithAReasonThatSaysWhat(_ missing: Missing) async throws {
        let target = try EmulatorTarget()
        let credentials: CheckCredentials = missing.tokenOnly ? .tokenProvider(tokenProvider(target)) : .serverKey(target.serverKey)
        let context = target.context(transport: claimingHosted(), credentials: credentials, recordedPurchase: missing.purchase)
        let result = try await target.runOne(missing.checkId, context: context)
        let reason = try #require(result.outcome.reason)
        #expect(reason.contains(missing.reason), "\(reason)")
        // What it needs is data beside the words; the stored reason names no flag or command.
        #expect(result.need == missing.need)
        #expect(!reason.contains("--") && !reason.contains("growcert "), "\(reason)")
    }

    @Test func firstConnectChecksPassWithATokenProviderOnAHostedClaimButRecordOnlyLiveEmulator() async throws {
        let target = try EmulatorTarget()
        let ids = ["session.identify", "session.rejects-invalid", "session.rejects-cross-scope", "holdings.single-customer", "switch.reset-clears"]
        let context = target.context(transport: claimingHosted(), credentials: .tokenProvider(tokenProvider(target)))
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ids, context: context)
        #expect(results.map(\.checkId) == ids)
        #expect(results.allSatisfy { $0.outcome.isPassed }, "\(results.map { "\($0.checkId): \($0.outcome)" })")
        for result in results {
            #expect(result.identity.sandboxKind == .hosted)
            #expect(!result.identity.isLiveHosted, "a loopback target must never be live-hosted")
            #expect(CheckRecorder.evidence(for: result, runId: "R1").allSatisfy { $0.provenance == .liveEmulator })
        }
    }

    @Test func theRetryCheckReplaysTokenIssueOnAHostedTarget() async throws {
        let target = try EmulatorTarget()
        let result = try await target.runOne("network.retry-replays-original", context: target.context(transport: claimingHosted()))
        #expect(result.outcome == .passed)
        #expect(result.transcript.map(\.path).filter { $0 == GrowWire.Path.customerTokens }.count == 2)
        #expect(result.transcript.allSatisfy { $0.responseBody?.contains(target.emulator.serverKey) != true })
    }
}
