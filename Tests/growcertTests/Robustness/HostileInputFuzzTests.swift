import ArgumentsKit
import Evidence
import Foundation
import Services
import StrictJSON
import Testing

@testable import Reports
@testable import StoreProof
@testable import growcert

/// Fixed-seed fuzz loops over everything a user or a server hands growcert: receipt JSON,
/// Google Play purchase JSON, template files and command-line arguments. Each case must end
/// in a result or a clear error of the documented kind: no crash, no hang, no internal error.
///
/// App Store JWS is fuzzed in `Tests/StoreProofTests/JWSFuzzTests.swift` (12,000 cases).
@Suite("Hostile input: fixed-seed fuzzing", .timeLimit(.minutes(3)))
struct HostileInputFuzzTests {
    static let cases = 10_000

    @Test("10,000 mutated receipt files are each parsed and read, or refused with a clear message")
    func receiptJSONNeverCrashes() throws {
        var r = FuzzRandom(state: 0x7265_6365_6970_7401)
        let seeds = [receiptJSON, #"{"orderId":"o_5001","receipts":[{"receiptId":"r_7001","status":"delivered"},{"receiptId":"r_7002"}]}"#]
        var accepted = 0
        for i in 0..<Self.cases {
            let bytes = Mutator.mutate(Array(r.pick(seeds).utf8), &r)
            let json: JSONValue
            do {
                json = try JSONValue.parse(Data(bytes))
            } catch let e as JSONParseError {
                #expect(e.description.hasPrefix("invalid JSON at byte "), "case \(i)")
                continue
            }
            // What parses must print canonically and read back the same.
            #expect(try JSONValue.parse(json.canonicalText) == json, "case \(i)")
            do {
                _ = try ReceiptJSON.extract(json, orderId: "o_5001", receiptId: r.below(2) == 0 ? nil : "r_7001", file: "receipt.json")
                accepted += 1
            } catch let e as ServiceError {
                #expect((e as any CommandLineError).exitCode == 65, "case \(i)")
                #expect(e.description.contains("Receipt file 'receipt.json'") && e.description.hasSuffix("Nothing was written."), "case \(i): \(e)")
            }
        }
        #expect(accepted > 0)
    }

    static let googlePurchase = #"""
        {"kind":"androidpublisher#productPurchase","purchaseTimeMillis":"1718000000123","purchaseState":0,
         "consumptionState":1,"developerPayload":"","orderId":"GPA.3349-1822-6571-01234","purchaseType":0,
         "acknowledgementState":1,"purchaseToken":"opaque-token-value","productId":"birds_pass","regionCode":"DE",
         "quantity":1,"obfuscatedExternalAccountId":"acct-7"}
        """#
    static let googleVoided = #"{"voidedPurchases":[{"kind":"androidpublisher#voidedPurchase","purchaseToken":"t","voidedTimeMillis":"1718086400000","orderId":"GPA.1","voidedSource":1,"voidedReason":7}]}"#

    @Test("10,000 mutated Google Play documents are each accepted or refused with a StoreProofError")
    func googlePurchaseJSONNeverCrashes() throws {
        var r = FuzzRandom(state: 0x676F_6F67_6C65_0001)
        var refused = 0
        for i in 0..<Self.cases {
            let bytes = Mutator.mutate(Array(r.pick([Self.googlePurchase, Self.googleVoided]).utf8), &r)
            do {
                _ = try GooglePlayDocument.parse(Data(bytes), expectedProductId: r.below(3) == 0 ? nil : "birds_pass")
            } catch let e as StoreProofError {
                refused += 1
                #expect(!e.description.isEmpty, "case \(i)")
                #expect(!e.description.contains("opaque-token-value"), "case \(i): a purchase token in an error message")
            }
        }
        #expect(refused > Self.cases / 2)
    }

    static let template = """
        # {{title}}
        {{! a comment }}
        {{#scenarios}}| {{id}} | {{verdict}} | {{{raw}}} |
        {{^runs}}no runs{{/runs}}{{#runs}}- {{tester}}: {{&note}}{{/runs}}
        {{/scenarios}}{{> footer}}
        {{=<% %>=}}<% title %><%={{ }}=%> {{.}}
        """

    @Test("10,000 mutated templates each render or fail with a MustacheError")
    func templatesNeverCrash() throws {
        var r = FuzzRandom(state: 0x6D75_7374_6163_6865)
        let context = MustacheValue.dictionary([
            "title": .string("<b>T</b>"), "scenarios": .list((0..<3).map { i in
                .dictionary(["id": .string("s\(i)"), "verdict": .string("PASS"), "raw": .string("<i>"),
                             "runs": .list([.dictionary(["tester": .string("Ann"), "note": .string("n")])])])
            }),
        ])
        let limits = MustacheLimits(maximumOutputBytes: 1 << 20, maximumSteps: 200_000)
        var rendered = 0
        for i in 0..<Self.cases {
            let source = String(decoding: Mutator.mutate(Array(Self.template.utf8), &r), as: UTF8.self)
            let partial = String(decoding: Mutator.mutate(Array("{{title}} {{> footer}}".utf8), &r), as: UTF8.self)
            do {
                let t = try MustacheTemplate(source: source, partials: ["footer": partial], limits: limits)
                _ = try t.render(context, escape: TextSafety.html)
                rendered += 1
            } catch let e as MustacheError {
                #expect(!e.description.isEmpty, "case \(i)")
            }
        }
        #expect(rendered > 0)
    }

    @Test("A template directory with a broken file is refused naming the file", arguments: [
        "{{#open}} never closed", "{{", "{{/close}}", "{{=<% %>", String(repeating: "{{#a}}", count: 400),
    ])
    func brokenTemplateFilesAreRefused(source: String) throws {
        let dir = try fastTempDirectory("templates")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(source.utf8).write(to: dir.appendingPathComponent("report.md.mustache"))
        #expect {
            _ = try ReportTemplates.load(directory: dir.path)
        } throws: { error in
            "\(error)".contains(dir.appendingPathComponent("report.md.mustache").path)
        }
    }

    // MARK: Command-line arguments

    /// Commands the fuzz loop runs; anything else (a server, a network check) is only parsed.
    static let runnable: Set<String> = [
        "init", "campaign create", "campaign list", "campaign show", "device add", "device list", "account add", "account list",
        "run start", "run finish", "run list", "run show", "evidence add transaction", "evidence add receipt", "evidence add attachment",
        "evidence add note", "evidence import", "evidence retract", "evidence list", "evidence show", "evidence export", "verify",
        "journal list", "report render", "report list", "report show", "report verify", "keys generate", "signoff", "signoff export", "signoff list",
    ]
    static let pathOptions: Set<String> = ["--db", "--out", "--file", "--jws-file", "--google-purchase-file", "--templates", "--key", "--public-key"]
    static let exitCodes: Set<Int32> = [0, 1, 2, 64, 65, 66, 74]

    @Test("10,000 mutated command lines each end in a result or a clear error with a documented exit code")
    func commandLinesNeverCrash() async throws {
        let dir = try fastTempDirectory("cli-fuzz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("evidence.sqlite").path
        let env = ["GROWCERT_DB": db, "GROWCERT_ACTOR": "fuzz", "HOME": dir.path]
        func cli(_ args: [String?]) async -> (Int32, CapturedOutput) {
            let captured = CapturedOutput()
            let console = Console(out: { captured.appendOut($0) }, err: { captured.appendErr($0) })
            var cli = CLI(environment: CallEnvironment(env), console: console)
            cli.currentFolder = dir.path
            return (await cli.run(arguments: args), captured)
        }
        for args in [["init"], ["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
                                "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"],
                     ["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"],
                     ["account", "add", "--campaign", "c1", "--label", "tester1", "--store", "apple", "--account", "sandbox.tester@icloud.com"],
                     ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone15", "--tester", "Ann"],
                     ["evidence", "add", "note", "--run", "r1", "--text", "seed"]] {
            let (code, out) = await cli(args)
            try #require(code == 0, "\(args): \(out.stderr)")
        }
        let files = ["receipt.json": receiptJSON, "notes.jsonl": #"{"run":"r1","type":"note","text":"imported"}"# + "\n", "junk.bin": "\u{0}\u{1}garbage",
                     "purchase.json": Self.googlePurchase, "jws.txt": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"]
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        let paths = files.keys.sorted().map { dir.appendingPathComponent($0).path } + [dir.appendingPathComponent("missing.json").path, dir.path,
                                                                                       dir.appendingPathComponent("out-file").path]
        let commands = CLI.commands.filter { Self.runnable.contains($0.name) }
        let values = ["c1", "r1", "d1", "e1", "e2", "rp1", "C1", "r999", "", " ", "-1", "0", "99999999999999999999", "first-connect", "pass", "fail",
                      "md", "html", "junit", "json", "en", "zh-Hans", "apple", "google", "ios", "physical", "iphone15", "tester1", "qa",
                      "'; DROP TABLE journal;--", "<script>alert(1)</script>", "a|b", "\"quoted\"", "\u{202E}evil", "gg_sk_live_abcdefgh",
                      "Bearer abcdefghijkl", "=", "--", "--json", String(repeating: "x", count: 5_000), "日本語", "1.5", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55",
                      "https://sandbox.groovegrow.example", "http://example.com"]
        var r = FuzzRandom(state: 0x636C_6966_757A_7A01)
        var codes: [Int32: Int] = [:]
        for i in 0..<Self.cases {
            var args: [String?] = []
            let command = r.pick(commands)
            if r.below(10) > 0 { args += command.path.map { $0 } } else { args.append(r.pick(values)) }
            for _ in 0..<r.below(7) {
                let option = r.below(8) > 0 && !command.options.isEmpty ? r.pick(command.options).name : r.pick(["--json", "--quiet", "--help", "--actor", "--bogus", "-x"])
                args.append(option)
                if r.below(8) > 0 { args.append(Self.pathOptions.contains(option) ? r.pick(paths) : r.pick(values)) }
            }
            for _ in 0..<r.below(3) {
                switch r.below(6) {
                case 0 where !args.isEmpty: args.remove(at: r.below(args.count))
                case 1: args.insert(r.pick(values), at: r.below(args.count + 1))
                case 2 where !args.isEmpty:
                    let k = r.below(args.count)
                    args[k] = String(decoding: Mutator.mutate(Array((args[k] ?? "").utf8), &r), as: UTF8.self)
                case 3: args.insert(nil, at: r.below(args.count + 1))  // not valid UTF-8
                case 4 where args.count > 1: args.swapAt(r.below(args.count), r.below(args.count))
                default: args.append(r.pick(values) + "=" + r.pick(values))
                }
            }
            args = Self.confined(args, paths: paths, scratch: dir.appendingPathComponent("scratch").path)
            let words = ParsedArguments(args.compactMap { $0 }).words
            if let matched = CLI.match(words.first == "help" ? Array(words.dropFirst()) : words), !Self.runnable.contains(matched.name) { continue }
            let (code, out) = await cli(args)
            codes[code, default: 0] += 1
            #expect(Self.exitCodes.contains(code), "case \(i) \(args.map { $0 ?? "<invalid UTF-8>" }): exit \(code)\n\(out.stderr)")
            if code != 0 && code != 1 && code != 2 {
                // No command word at all prints the overview (on stdout) with exit 64; everything else says what was wrong on stderr.
                let overview = code == 64 && out.stderr.isEmpty && out.stdout.hasPrefix("growcert \(CLI.version): ")
                // Under --json the error is one line of JSON instead: {"error":{"code":…,"exitCode":…,"message":…}}.
                let jsonError = out.stderr.hasPrefix(#"{"error":{"code":"#) && out.stderr.hasSuffix("}}\n") && out.stderr.count > 40
                #expect(overview || jsonError || (out.stderr.hasPrefix("growcert: ") && out.stderr.count > 20), "case \(i): exit \(code): \(out.stderr)\(out.stdout.prefix(200))")
            }
            #expect(!out.stderr.contains("gg_sk_live_abcdefgh") && !out.stdout.contains("gg_sk_live_abcdefgh"), "case \(i): a server key echoed")
        }
        #expect((codes[0] ?? 0) > 100, "\(codes)")
        #expect((codes[64] ?? 0) > 100, "\(codes)")
        let (code, out) = await cli(["verify"])
        #expect(code == 0, "\(out.stdout)\(out.stderr)")
    }

    /// Keeps a fuzzed command line inside the scratch directory: every path-like value points
    /// there, and `-` (stdin) is never read.
    static func confined(_ args: [String?], paths: [String], scratch: String) -> [String?] {
        var out = args
        for k in out.indices {
            guard let a = out[k] else { continue }
            if a == "-" { out[k] = scratch; continue }
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--"), pathOptions.contains(String(a[..<eq])) {
                let value = String(a[a.index(after: eq)...])
                if !paths.contains(value) { out[k] = String(a[..<eq]) + "=" + scratch }
            } else if k > 0, let previous = out[k - 1], pathOptions.contains(previous), !paths.contains(a) {
                out[k] = scratch
            }
        }
        return out
    }
}
