import Foundation
import Testing
import TestSupport

/// Issue 12: set-up mistakes are refused by the pre-flight and never become evidence; --dry-run, --except,
/// --campaign; emulator --order-id/--transaction-id; the refund check waits (75); delivered-once after a refund.
@Suite("growcert end to end: check run's pre-flight, --dry-run, --except, --campaign and the refund wait")
struct CheckRunPreflightTests {
    static let nothing = "Nothing was run or recorded."

    @Test("A campaign with the wrong project is refused by the pre-flight (65, what to fix) and nothing is recorded (--dry-run too: CheckRunPreflightServiceTests)")
    func wrongProjectIsRefused() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        let wrong = "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55"
        try g.seedLive(baseURL: sandbox.baseURL, project: wrong)
        let before = try g.journalState()
        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001"], env: ["GROWCERT_SERVER_KEY": sandbox.serverKey])
        #expect(o.code == 65, "\(o)")
        #expect(o.stdout == "")
        #expect(o.stderr == "growcert: Pre-flight: the Sandbox at '\(sandbox.baseURL)' did not issue a customer token for 'c_1001' with the server key for project '\(wrong)': The credential belongs to another project or environment (scope_mismatch). Check the project UUID and that the environment is 'sandbox'. The campaign's project must be the App UUID the credentials belong to. \(Self.nothing) Set it with 'growcert campaign update c1 --project UUID'.\n", "\(o)")
        #expect(!o.stderr.contains(sandbox.serverKey))
        #expect(try g.journalState() == before, "a refused check run must record nothing")
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.isEmpty == true)
    }

    @Test("A token command that is not found (exit 127) is refused with 64 before any check runs, and nothing is recorded")
    func tokenCommandNotFoundIsRefused() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        let before = try g.journalState()
        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--token-command", g.path("no-such-mint-token")])
        #expect(o.code == 64, "\(o)")
        #expect(o.stdout == "")
        #expect(o.stderr == "growcert: Pre-flight: the token command was not found or cannot be run (exit status 127): it runs as 'CMD CUSTOMER_ID [TTL]' through /bin/sh. \(Self.nothing) Check --token-command.\nSee 'growcert check run --help'.\n", "\(o)")
        #expect(CheckRunTests.progressLines(o).isEmpty)
        #expect(try g.journalState() == before)
    }

    @Test("On a hosted target a sign-out-switch run without --second-customer exits 64 before anything is sent or recorded")
    func missingSecondCustomerIsRefused() throws {
        let g = try Growcert()
        try g.seed()  // https://sandbox.groovegrow.example: a probe would fail with 69, so 64 proves nothing was sent
        let started = try g.run(["run", "start", "--campaign", "c1", "--scenario", "sign-out-switch", "--device", "iphone15", "--tester", "Ann"])
        try #require(started.code == 0, "\(started)")
        let before = try g.journalState()
        let o = try g.run(["check", "run", "--run", "r2", "--customer", "c_1001"], env: ["GROWCERT_SERVER_KEY": "gg_sk_TestTestTestTestTest0123"])
        #expect(o.code == 64, "\(o)")
        #expect(o.stderr == "growcert: The check switch.late-response-dropped signs in as a second customer: name a Sandbox customer other than the customer, or leave them out. \(Self.nothing) Pass --second-customer CUSTOMER_ID (a Sandbox customer other than --customer), or leave them out with --except.\nSee 'growcert check run --help'.\n", "\(o)")
        #expect(try g.journalState() == before)
        // Leaving it out is the other way.
        let except = try g.run(["check", "run", "--run", "r2", "--customer", "c_1001", "--except", "switch.late-response-dropped", "--dry-run"],
                               env: ["GROWCERT_SERVER_KEY": "gg_sk_TestTestTestTestTest0123"])
        #expect(except.code == 69, "past the flags, the pre-flight probes the (unreachable) target: \(except)")
        #expect(try g.journalState() == before)
    }

    @Test("check run --dry-run does the pre-flight only and records nothing; --except skips checks and refuses unknown ids")
    func dryRunAndExcept() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        let key = ["GROWCERT_SERVER_KEY": sandbox.serverKey]
        let before = try g.journalState()
        let dry = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--dry-run"], env: key)
        #expect(dry.code == 0, "\(dry)")
        #expect(dry.stdout == "Pre-flight passed for run r1: target, scope, credentials and flags are ready. Nothing was run or recorded (--dry-run).\n")
        #expect(dry.stderr == "")
        #expect(try g.journalState() == before)

        let unknown = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--except", "session.identfy"], env: key)
        #expect(unknown.code == 64, "\(unknown)")
        #expect(unknown.stderr.hasPrefix("growcert: Unknown check 'session.identfy' among the checks left out. Did you mean 'session.identify'? Known checks: session.identify, session.rejects-invalid, "), "\(unknown)")
        #expect(try g.journalState() == before)

        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--except", "session.rejects-expired", "--except", "holdings.match-console"], env: key)
        #expect(o.code == 0, "\(o)")
        let expected = CheckRunTests.firstConnect.filter { !["session.rejects-expired", "holdings.match-console"].contains($0) }
        #expect(CheckRunTests.progressLines(o).map(\.id) == expected, "\(o)")
        #expect(o.stdout == "4/4 checks passed on run r1; \(CheckRunTests.emulatorNote)\n")
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(items.compactMap { ($0["details"] as? [String: Any])?["checkId"] as? String } == expected)
    }

    /// `sandbox purchase` on the emulator, its JWS recorded on run r1; returns (orderId, transactionId).
    static func emulatorPurchase(_ g: Growcert, key: [String: String]) throws -> (String, String) {
        let bought = try g.run(["sandbox", "purchase", "--campaign", "c1", "--out", g.path("purchase"), "--json"], env: key)
        try #require(bought.code == 0, "\(bought)")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(bought.stdout.utf8)) as? [String: Any])
        let orderId = try #require(info["orderId"] as? String)
        let transactionId = try #require(info["transactionId"] as? String)
        let added = try g.run(["evidence", "add", "transaction", "--run", "r1", "--jws-file", g.path("purchase/transaction.jws"), "--order-id", orderId])
        try #require(added.code == 0, "\(added)")
        return (orderId, transactionId)
    }

    @Test("On the emulator --order-id is used when it exists (the receipt names it) and refused when not; the refund check waits (75, nothing recorded) until the refund arrived; the purchase checks pass after the refund")
    func emulatorOrderRefundWaitAndPurchaseChecksAfterTheRefund() throws {
        let g = try Growcert()
        let curl = try Growcert.tool(["curl"], install: "install the Debian package curl (the test refunds on the emulator with it)")
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project, scenario: "purchase-restore-refund")
        let key = ["GROWCERT_SERVER_KEY": sandbox.serverKey]
        let (orderId, transactionId) = try Self.emulatorPurchase(g, key: key)
        let base = ["check", "run", "--run", "r1", "--customer", "c_1001"]

        var before = try g.journalState()
        let missing = try g.run(base + ["--order-id", "o_999", "--transaction-id", transactionId], env: key)
        #expect(missing.code == 65, "\(missing)")
        #expect(missing.stderr == "growcert: Pre-flight: order 'o_999' does not exist on the emulator for customer 'c_1001' (The resource, run token or order was not found (not_found).): name the order the emulator sold, or name none to let the checks buy their own. \(Self.nothing) 'growcert sandbox purchase' prints the order it sold; without --order-id and --transaction-id the checks buy their own.\n", "\(missing)")
        let otherTransaction = try g.run(base + ["--order-id", orderId, "--transaction-id", "emu-tx-999"], env: key)
        #expect(otherTransaction.code == 65, "\(otherTransaction)")
        #expect(otherTransaction.stderr == "growcert: Pre-flight: order '\(orderId)' on the emulator has no receipt for transaction 'emu-tx-999' (its transactions: \(transactionId)). \(Self.nothing)\n", "\(otherTransaction)")
        #expect(try g.journalState() == before)

        let purchase = ["--order-id", orderId, "--transaction-id", transactionId]
        // The refund check alone, before the refund: waiting, exit 75, nothing recorded.
        let wait = try g.run(base + purchase + ["--check", "refund.revokes-and-records"], env: key)
        #expect(wait.code == 75, "\(wait)")
        #expect(wait.stderr.hasPrefix("WAIT refund.revokes-and-records ("), "\(wait)")
        #expect(wait.stderr.hasSuffix("ms): Waiting for the refund: order '\(orderId)' is still delivered. Refund the purchase in the store sandbox, wait for the store's notification, then run this check again.\n"), "\(wait)")
        #expect(wait.stdout == "0/0 checks passed on run r1; recorded as -; waiting, not recorded: refund.revokes-and-records\n", "\(wait)")
        #expect(try g.journalState() == before)

        // The whole scenario on QA's order: the purchase checks examine it; the refund check still waits.
        let o = try g.run(base + purchase, env: key)
        #expect(o.code == 75, "\(o)")
        let lines = CheckRunTests.progressLines(o)
        #expect(lines.map(\.id) == ["purchase.delivered-once", "purchase.resubmit-idempotent", "restore.no-double-grant", "relay.requires-double-auth"], "\(o)")
        #expect(lines.allSatisfy { $0.word == "PASS" }, "\(o)")
        #expect(o.stdout == "4/4 checks passed on run r1; \(CheckRunTests.emulatorNote); waiting, not recorded: refund.revokes-and-records\n", "\(o)")
        var items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        let receipts = items.filter { $0["type"] as? String == "receipt" }
        #expect(receipts.count == 1)
        #expect((receipts.first?["details"] as? [String: Any])?["orderId"] as? String == orderId, "the checks examined QA's order, not their own")
        #expect(!items.contains { ($0["details"] as? [String: Any])?["checkId"] as? String == "refund.revokes-and-records" })

        // The store refund arrives (the emulator's store control), then the refund check passes…
        let process = try SpawnedProcess(curl, ["-sS", "--fail", "-o", "/dev/null", "-X", "POST", sandbox.baseURL + "/_emulator/store/refunds",
                                                "-H", "Authorization: Bearer \(sandbox.serverKey)", "-H", "GrooveGrow-Project: \(sandbox.project)",
                                                "-H", "GrooveGrow-Environment: sandbox", "-H", "Content-Type: application/json", "-H", "Idempotency-Key: refund-1",
                                                "-d", "{\"transactionId\": \"\(transactionId)\"}"])
        process.waitForExit()
        try #require(process.terminationStatus == 0, "the emulator did not take the refund")
        let refund = try g.run(base + purchase + ["--check", "refund.revokes-and-records"], env: key)
        #expect(refund.code == 0, "\(refund)")
        #expect(refund.stdout == "1/1 checks passed on run r1; \(CheckRunTests.emulatorNote)\n", "\(refund)")
        // …and the purchase checks run again after the refund still pass (single delivery of a refunded order).
        before = try g.journalState()
        let again = try g.run(base + purchase, env: key)
        #expect(again.code == 0, "\(again)")
        #expect(CheckRunTests.progressLines(again).allSatisfy { $0.word == "PASS" }, "\(again)")
        #expect(again.stdout == "5/5 checks passed on run r1; \(CheckRunTests.emulatorNote)\n", "\(again)")
        items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(!items.contains { (($0["details"] as? [String: Any])?["reason"] as? String)?.contains("not delivered") == true })
        #expect(try g.journalState().count > before.count)
    }

    @Test("check run --campaign runs each open run in catalog order with one pre-flight, and skips finished runs")
    func campaignRunsEveryOpenRun() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project, scenario: "sign-out-switch")
        for args in [["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "sim", "--tester", "Ann"],
                     ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "sim", "--tester", "Bo"],
                     ["run", "finish", "r3", "--outcome", "pass"]] {
            let o = try g.run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
        let key = ["GROWCERT_SERVER_KEY": sandbox.serverKey]
        let o = try g.run(["check", "run", "--campaign", "c1", "--customer", "c_1001", "--except", "session.rejects-expired",
                           "--except", "switch.restart-needs-auth"], env: key)
        #expect(o.code == 0, "\(o)")
        let fc = CheckRunTests.firstConnect.filter { $0 != "session.rejects-expired" }
        #expect(CheckRunTests.progressLines(o).map(\.id) == fc + ["switch.reset-clears", "switch.late-response-dropped"], "\(o)")
        #expect(o.stdout == "5/5 checks passed on run r2; \(CheckRunTests.emulatorNote)\n2/2 checks passed on run r1; \(CheckRunTests.emulatorNote)\n", "\(o)")
        #expect((try g.json(["evidence", "list", "--run", "r3"]) as? [Any])?.isEmpty == true, "a finished run is not checked")
        #expect((try g.json(["evidence", "list", "--run", "r2"]) as? [Any])?.count == fc.count)
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.count == 2)

        let both = try g.run(["check", "run", "--campaign", "c1", "--run", "r1", "--customer", "c_1001"], env: key)
        #expect(both.code == 64, "\(both)")
        #expect(both.stderr == "growcert: Name one run or one campaign (each open run of the campaign), not both. Give --run ID or --campaign ID.\nSee 'growcert check run --help'.\n")
    }
}
