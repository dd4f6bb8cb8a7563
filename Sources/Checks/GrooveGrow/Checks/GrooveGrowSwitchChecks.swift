import Foundation
import GrowClient
import HTTPCore

/// Sign-out and account switch: nothing of the old customer survives a reset, a late response or a restart.
enum GrooveGrowSwitchChecks {
    /// How long customer A's holdings response is held back: long enough to arrive after B is identified.
    static let lateDelay: Duration = .milliseconds(300)

    static let all: [CheckDefinition<GrooveGrowHarness>] = [
        CheckDefinition(id: "switch.reset-clears", body: resetClears),
        CheckDefinition(id: "switch.late-response-dropped", needsSecondCustomer: true, body: lateResponseDropped),
        CheckDefinition(id: "switch.restart-needs-auth", body: restartNeedsAuth),
    ]

    static func resetClears(_ run: GrooveGrowHarness) async throws {
        let customerId = run.customerId
        try await run.seedHoldingsIfEmulator(customerId)
        let (client, _) = try await run.identifiedSessionClient(customerId)
        _ = try await step("read holdings") { try await client.readHoldings() }
        try require(await client.snapshot != nil, "The client kept no holdings snapshot after readHoldings, so reset has nothing to clear.")
        await client.reset()
        let held = await leftovers(of: client)
        try require(held.isEmpty, "After reset() the client still holds \(held.joined(separator: ", ")).")
        try await requireLocalRefusal(client, run: run, after: "reset()")
    }

    static func lateResponseDropped(_ run: GrooveGrowHarness) async throws {
        let a = run.customerId
        let b = try run.secondCustomerId()
        try await run.seedHoldingsIfEmulator(a)
        try await run.seedHoldingsIfEmulator(b)
        let tokenA = try await run.token(for: a)
        let tokenB = try await run.token(for: b)
        let client = run.sessionClient()
        _ = try await step("identify as '\(a)'") { try await client.identify(customerToken: tokenA.customerToken) }

        let holdingsPath = RequestMatcher.path(GrowWire.Path.holdings, method: .get)
        run.faults.inject(.delayResponse(lateDelay), when: holdingsPath, repetition: .once)
        let lateRead = Task { try await client.readHoldings() }
        // The late read must never outlive the check: on any failure below it is cancelled and awaited,
        // so no request is still in flight when `check run` prints its summary and the process exits.
        do {
            // Switch only once A's request has reached the Sandbox and its response is on its way back.
            var polls = 0
            while run.capture.exchanges(path: GrowWire.Path.holdings).isEmpty {
                polls += 1
                try require(polls <= 400, "Customer A's holdings request did not reach the Sandbox within 2 seconds.")
                try await run.context.clock.sleep(.milliseconds(5))
            }
            await client.reset()
            _ = try await step("identify as '\(b)' after reset") { try await client.identify(customerToken: tokenB.customerToken) }
            _ = try await step("read holdings as '\(b)'") { try await client.readHoldings() }
        } catch {
            lateRead.cancel()
            _ = await lateRead.result
            throw error
        }

        if case .success = await lateRead.result {
            throw CheckFailure("Customer '\(a)''s late holdings response was returned as a success after the switch to '\(b)'; it must be dropped.")
        }
        let snapshot = await client.snapshot
        try require(snapshot != nil, "After the switch the client holds no holdings snapshot for '\(b)'.")
        if let snapshot {
            let owners = Set([snapshot.customerId] + snapshot.memberships.map(\.customerId) + snapshot.balances.map(\.customerId))
            try require(owners == [b], "After the switch the snapshot holds data of \(owners.sorted().map { "'\($0)'" }.joined(separator: ", ")), not only of '\(b)': the late response overwrote it.")
        }
        let session = await client.currentSession
        try require(session?.customerId == b, "After the switch the session names '\(session?.customerId ?? "nobody")', not '\(b)'.")
    }

    static func restartNeedsAuth(_ run: GrooveGrowHarness) async throws {
        let started = run.context.clock.now()
        let customerId = run.customerId
        try await run.seedHoldingsIfEmulator(customerId)
        let token = try await run.token(for: customerId)
        do {
            let old = run.sessionClient()
            _ = try await step("identify as '\(customerId)'") { try await old.identify(customerToken: token.customerToken) }
            _ = try await step("read holdings") { try await old.readHoldings() }
        }
        // The app restarts: a new client instance in the same process is as close as growcert can get.
        let fresh = run.sessionClient()
        let held = await leftovers(of: fresh)
        try require(held.isEmpty, "A freshly created client already holds \(held.joined(separator: ", ")): the old session survived the restart.")
        try await requireLocalRefusal(fresh, run: run, after: "a restart")

        let report = GrooveGrowDiskScanner().scan(roots: run.target.diskScanRoots, since: started.addingTimeInterval(-2),
                                        for: [Data(token.customerToken.utf8)])
        try require(report.hits.isEmpty, "The old session's customer token was written to disk: "
                        + report.hits.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + ".")
    }

    /// Fails unless `readHoldings` is refused without any request reaching the transport.
    static func requireLocalRefusal(_ client: any SessionClient, run: GrooveGrowHarness, after event: String) async throws {
        let before = run.recorder.entries.count
        let result = await outcome { try await client.readHoldings() }
        let sent = run.recorder.entries.count - before
        if case .success = result {
            throw CheckFailure("After \(event) readHoldings succeeded; a customer call must be refused until a customer identifies again.")
        }
        try require(sent == 0, "After \(event) readHoldings sent \(sent) request(s) to the Sandbox instead of refusing locally.")
    }
}
