import Foundation
import Testing

/// Issue 22: the CherrySub hand rehearsal of docs/cherrysub.md reaches NOT CERTIFIABLE, as the demo does.
@Suite("CherrySub: the hand rehearsal on 'sandbox serve --profile cherrysub'")
struct CherrySubRehearsalTests {
    @Test("serve prints a ready campaign create line with the app id it accepts; sandbox purchase sells an emulator-signed JWS; every scenario ends NOT CERTIFIABLE")
    func theRehearsalReachesNotCertifiable() throws {
        let g = try Growcert()
        let serve = try Running(g, Growcert.binary, ["sandbox", "serve", "--profile", "cherrysub", "--json", "--port", "0"], env: [:], stdin: nil)
        defer { serve.process.terminate(); _ = try? serve.finish() }
        let info = try #require(try JSONSerialization.jsonObject(with: Data(try serve.firstLine().utf8)) as? [String: Any])
        let create = try #require(info["campaignCreate"] as? String, "no campaign create line: \(info)")
        let secretKey = try #require(info["secretKey"] as? String)
        #expect(create.hasPrefix("growcert campaign create --profile cherrysub --app-id com.example.app "), "\(create)")
        #expect(create.contains("--publishable-key \(info["publishableKey"] as? String ?? "?") --base-url \(info["baseUrl"] as? String ?? "?")"), "\(create)")
        let env = ["GROWCERT_SERVER_KEY": secretKey]

        @discardableResult
        func ok(_ args: [String]) throws -> Outcome {
            let o = try g.run(args, in: ".", env: env)
            try #require(o.code == 0, "growcert \(args.joined(separator: " ")): \(o)")
            return o
        }
        try ok(["init"])
        try ok(Array(create.split(separator: " ").map(String.init).dropFirst()))
        try ok(["device", "add", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"])
        try ok(["account", "add", "--label", "sandbox-us", "--store", "apple", "--account", "sandbox.tester@icloud.com", "--storefront", "USA"])
        let started = try ok(["run", "start", "--all-scenarios", "--device", "iphone15", "--account", "sandbox-us", "--tester", "Ana QA", "--json"])
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(started.stdout.utf8)) as? [[String: Any]])
        #expect(runs.count == 6)
        for run in runs {
            let id = try #require(run["id"] as? String), scenario = try #require(run["scenario"] as? String)
            var check = ["check", "run", "--run", id, "--customer", "u_1001", "--second-customer", "u_9002"]
            if scenario != "account-switch" {
                let bought = try ok(["sandbox", "purchase", "--out", "purchase-\(id)", "--json"])
                let purchase = try #require(try JSONSerialization.jsonObject(with: Data(bought.stdout.utf8)) as? [String: Any])
                let transactionId = try #require(purchase["transactionId"] as? String)
                let recorded = try ok(["evidence", "add", "transaction", "--run", id, "--jws-file", "purchase-\(id)/transaction.jws", "--json"])
                #expect(recorded.stdout.contains("emulator-signed"), "\(recorded)")
                check += ["--transaction-id", transactionId]
            }
            try ok(check)
        }
        try ok(["run", "finish"] + runs.compactMap { $0["id"] as? String } + ["--outcome", "pass"])
        let status = try ok(["status", "--json"])
        let campaigns = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        let scenarios = (campaigns.first?["scenarios"] as? [[String: Any]] ?? []).map { "\($0["scenario"] ?? ""): \($0["verdict"] ?? "")" }
        #expect(scenarios == ["store-purchase", "duplicate-retry", "restore", "cancellation-expiry", "refund", "account-switch"].map { "\($0): NOT CERTIFIABLE" },
                "\(status.stdout)")
    }

    @Test("sandbox purchase on a CherrySub campaign refuses a target that is not this machine, before buying")
    func purchaseRefusesAHostedTarget() throws {
        let g = try Growcert()
        #expect(try g.run(["init"], in: ".").code == 0)
        #expect(try g.run(["campaign", "create", "--profile", "cherrysub", "--app-id", "com.example.app", "--app-version", "1.0", "--build", "1",
                           "--sdk-version", "2.0.0", "--publishable-key", "iap_pk_test_1234", "--base-url", "https://api-staging.cherrysub.com"], in: ".").code == 0)
        let o = try g.run(["sandbox", "purchase", "--out", "p"], in: ".", env: ["GROWCERT_SERVER_KEY": "iap_sk_test_1234"])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr.hasPrefix("growcert: 'https://api-staging.cherrysub.com' is not the local emulator"), "\(o)")
        #expect(!o.stderr.contains("project UUID"), "\(o)")
        #expect(!FileManager.default.fileExists(atPath: g.path("p/transaction.jws")))
    }
}
