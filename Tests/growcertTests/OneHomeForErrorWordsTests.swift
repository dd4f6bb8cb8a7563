import Checks
import Evidence
import Foundation
import GrowClient
import Reports
import Sandbox
import Services
import StoreProof
import Testing
import WebView
@testable import growcert

/// Each error's words live in one place, its module's `description`: the command line prints them as they are,
/// then adds only what it alone knows (a flag, a command, the pointer to `--help`). A case the command line
/// words again fails here.
@Suite struct OneHomeForErrorWordsTests {
    static let problem = VerificationProblem(seq: 3, message: "the hash of entry 3 does not match")
    static let workspace = Workspace(folder: "/w", database: "/w/e.sqlite")

    static let evidenceErrors: [EvidenceError] = [
        .databaseMissing(path: "e.sqlite"), .notAnEvidenceDatabase(path: "x"), .damaged(path: "x", detail: "d"),
        .unreadableValue(column: "runs.status", value: "v"), .mistypedValue(column: "runs.id", found: "NULL", expected: "text"),
        .missingColumn("runs.id"), .maskKeyMissing(keyPath: "e.key"), .maskKeyMismatch(keyPath: "e.key", found: "aa", expected: "bb"),
        .databaseTooNew(path: "x", found: 9, supported: 2), .unknown(what: "run", value: "r9", known: ["r1"]),
        .invalidValue(field: "f", value: "v", why: "w"), .secretRefused(field: "note", what: "a key"), .fileMissing(path: "x"),
        .fileTooLarge(path: "x", size: 2, limit: 1), .conflict("c."), .io("disk full."), .commitUnacknowledged(location: "db", detail: "lost"),
        .internalFailure("x"), .reportBytesMissing(reportId: "rp1"), .approvalNeedsAcceptedRisk(reportId: "rp1", verdict: "FAILED"),
        .privilegesMissing(location: "db", reading: false, detail: "no"), .signingKeyUnusable(why: "not Ed25519"),
    ]

    static let serviceErrors: [ServiceError] = [
        .unknownExceptedCheck(id: "x", known: ["a"]), .checkNotInScenario(id: "x", scenario: "s", checks: ["a"]),
        .checkNotInCampaign(id: "x", campaignId: "c1", known: ["a"]), .noCheckLeft(runIds: ["r1"]), .noOpenRun(campaignId: "c1"),
        .transactionNotStoreSigned(transactionId: "t", runId: "r1", recorded: []), .secondCustomerNeeded(checks: ["a"]),
        .secondCustomerIsCustomer(customerId: "c"), .noCredentials(serverKeyUse: "the broker's iap_sk_ key"),
        .serverKeyInvalid(reason: "short"), .serverKeyNotTheVendors(vendor: "CherrySub", shape: "iap_sk_…"), .tokenCommandNotRunnable(status: 127),
        .tokenCommandFailed(reason: "It failed."), .tokenExpiryInvalid(expiresAt: "soon"),
        .tokenNotIssued(baseURL: "http://h", customerId: "c", project: "p", error: .scopeMismatch, campaignId: "c1"),
        .tokenRefused(baseURL: "http://h", fromTokenCommand: true, customerId: "c", project: "p", error: .unauthorized(code: .tokenInvalid), campaignId: "c1"),
        .tokenRefused(baseURL: "http://h", fromTokenCommand: false, customerId: "c", project: "p", error: .forbidden, campaignId: "c1"),
        .emulatorOrderMissing(orderId: "o", customerId: "c", reason: "404"), .emulatorOrderHasNoReceipt(orderId: "o", transactionId: "t", known: []),
        .campaignURLInvalid(baseURL: "::"), .campaignTargetUnusable(reason: "bad."), .brokerRefused(customerId: "c", reason: "no."),
        .vendorReadRefused(vendor: "CherrySub", baseURL: "http://h", customerId: "c", reason: "no."), .transactionNotRecorded(transactionId: "t", runId: "r1"),
        .purchaseTargetNotLoopback(baseURL: "https://h", host: "h"), .purchaseTargetUnreachable(baseURL: "http://127.0.0.1:1"),
        .purchaseTargetNotEmulator(baseURL: "http://127.0.0.1:1", kindHeader: "K", profile: "cherrysub"),
        .timestampAuthorityUnreachable(url: "http://t", reason: "down"), .timestampAuthorityStatus(url: "http://t", status: 500),
        .timestampAnswerRefused(url: "http://t", reason: "bad"), .exportedSignoffUnreadable(folder: "d", file: "statement.sig"),
        .notIntact(action: "signed", first: problem, count: 3), .verdictNotReproduced(reportId: "rp1", stored: "CERTIFIED", judged: "FAILED"),
        .reportFolderNotAFolder(path: "f"), .demoFolderUnwritable(path: "d", reason: "denied"), .demoDatabaseExists(path: "d/growcert.sqlite"),
        .demoUnknownProfile("acme", known: ["groovegrow", "cherrysub"]), .noPlayLicenseKey(campaignId: "c1"),
        .profileTakesNoPlayKey(profile: "cherrysub", proofs: ["manual"]), .receiptRefused(file: "r.json", why: "is not JSON"),
        .voidedListEmpty(file: "v.json"), .emulatorSettingInvalid(setting: "project", expected: "a UUID"), .demoDoesNotVerify(problems: [problem]),
    ]
    /// The cases without values, which a mirror cannot name.
    static let bareServiceErrors: [String: ServiceError] = [
        "purchaseNeedsOneRun": .purchaseNeedsOneRun, "runOrCampaign": .runOrCampaign, "orderAndTransactionApart": .orderAndTransactionApart,
        "tokenCommandCannotRevoke": .tokenCommandCannotRevoke, "journalEmpty": .journalEmpty,
    ]

    static let outputErrors: [OutputError] = [
        .cannotWrite(path: "r.md", reason: nil), .cannotWrite(path: "r.md", reason: "denied"), .cannotWriteInto(folder: "d", reason: "denied"),
        .evidenceDatabase(path: "e.sqlite"), .directory(path: "d"), .notRegular(path: "p", kind: "a FIFO"),
        .exists(path: "r.md", replaceable: true), .exists(path: "k.pem", replaceable: false), .notToStandardOutput(path: "-"),
    ]
    static let bareOutputErrors: [String: OutputError] = ["folderNotStandardOutput": .folderNotStandardOutput]

    static let workspaceErrors: [WorkspaceError] = [
        .emptyDatabase(fromEnvironment: false), .emptyDatabase(fromEnvironment: true),
        .relativeEnvironment(value: "./e.sqlite", resolved: "/w/sub/e.sqlite", workspace: workspace),
        .unreadable(path: "/w/growcert.workspace", reason: "is not JSON"), .notOwned(path: "/w/growcert.workspace"),
        .otherDatabase(workspace: workspace, requested: "/w/other.sqlite"), .noWorkspace(database: "/x/e.sqlite"),
        .databaseMissing(path: "/w/e.sqlite", source: .workspace, workspace: workspace),
        .databaseMissing(path: "/x/growcert.sqlite", source: .defaultFile, workspace: nil),
        .databaseMissing(path: "/w/x.sqlite", source: .option, workspace: workspace),
        .databaseMissing(path: "/x/x.sqlite", source: .environment, workspace: nil),
    ]

    static let webErrors: [WebError] = [
        .cannotListen(address: "10.0.0.1", port: 8080, reason: "in use"), .noServer(database: "e.sqlite"), .serverRefused("no."), .badExpiry("3d"),
    ]
    static let bareWebErrors: [String: WebError] = ["unspecifiedAddress": .unspecifiedAddress]

    static let checkErrors: [CheckError] = [
        .unreachable(baseURL: "http://h", reason: "refused"), .unknownCheck("x", known: ["a"]), .noSuite(profile: "acme", known: ["groovegrow"]),
        .wrongTarget(profile: "cherrysub"),
    ]

    static let sandboxErrors: [SandboxError] = [
        .invalidConfiguration("bad"), .bindFailed(port: 1, reason: "in use"), .serverStartFailed("no"), .crypto("no"),
    ]
    static let bareSandboxErrors: [String: SandboxError] = ["alreadyStarted": .alreadyStarted]

    /// Every other error the command line maps, one value of each case or so.
    static let others: [any DomainCommandLineError] = [
        ReportError.templateDirectoryMissing(path: "t"), ReportError.unreadable(file: "f", why: "w"), ReportError.notAJSONReport("r.json"),
        GrowClientError.scopeMismatch, GrowClientError.unauthorized(code: .tokenExpired), GrowClientError.invalidResponse("x"),
        StoreProofError.signatureInvalid, StoreProofError.bundleIdMismatch(expected: "a", found: "b"), StoreProofError.googleMissingField("orderId"),
        GrowEmulatorPurchase.Failure.noPurchaseStep, GrowEmulatorPurchase.Failure.noAppleTransaction(orderId: "o"),
    ]

    static var all: [any DomainCommandLineError] {
        var out: [any DomainCommandLineError] = others
        out += evidenceErrors.map { $0 as any DomainCommandLineError }
        out += (serviceErrors + bareServiceErrors.values).map { $0 as any DomainCommandLineError }
        out += (outputErrors + bareOutputErrors.values).map { $0 as any DomainCommandLineError }
        out += workspaceErrors.map { $0 as any DomainCommandLineError }
        out += (webErrors + bareWebErrors.values).map { $0 as any DomainCommandLineError }
        out += checkErrors.map { $0 as any DomainCommandLineError }
        out += (sandboxErrors + bareSandboxErrors.values).map { $0 as any DomainCommandLineError }
        return out
    }

    @Test("Every mapped error's message begins with its library's own words, after redaction")
    func messagesBeginWithTheDescription() {
        for error in Self.all {
            let (message, code) = CLI.describe(error)
            let words = error.redactsMessage ? SecretScanner.redact(error.description) : error.description
            #expect(message.hasPrefix(words), "\(type(of: error)): '\(message)' does not begin with '\(words)'")
            #expect(code == error.exitCode)
            // What the command line adds is a hint and a pointer to --help, nothing else.
            let added = String(message.dropFirst(min(words.count, message.count)))
            let hint = error.commandLineHint.map { " " + (error.redactsMessage ? SecretScanner.redact($0) : $0) } ?? ""
            let help = error.helpCommand.map { CLIError.usage("", command: $0).description } ?? ""
            #expect(added == hint + help, "\(type(of: error)): '\(added)'")
        }
    }

    @Test("The library's words name no flag and no growcert command line; the hint is where those go")
    func descriptionsNameNoFlag() {
        for error in Self.all where !(error is ServiceError && (error as? ServiceError) == .tokenCommandCannotRevoke) {
            #expect(!error.description.contains(" --") && !error.description.contains("'growcert ") && !error.description.contains("(growcert "),
                    "\(type(of: error)): \(error.description)")
        }
    }

    @Test("The samples hold every case of each error whose command line adds a hint", arguments: [
        ("Services/ServiceError.swift", "ServiceError"), ("EvidenceModel/EvidenceError.swift", "EvidenceError"),
        ("Services/OutputFile.swift", "OutputError"), ("Services/Workspace.swift", "WorkspaceError"), ("WebView/WebError.swift", "WebError"),
        ("Checks/Model/CheckError.swift", "CheckError"), ("Sandbox/SandboxError.swift", "SandboxError"),
    ])
    func samplesCoverEveryCase(file: String, type: String) throws {
        let declared = try Self.cases(of: type, in: file)
        let sampled: Set<String>
        switch type {
        case "ServiceError": sampled = Self.names(Self.serviceErrors).union(Self.bareServiceErrors.keys)
        case "EvidenceError": sampled = Self.names(Self.evidenceErrors)
        case "OutputError": sampled = Self.names(Self.outputErrors).union(Self.bareOutputErrors.keys)
        case "WorkspaceError": sampled = Self.names(Self.workspaceErrors)
        case "CheckError": sampled = Self.names(Self.checkErrors)
        case "SandboxError": sampled = Self.names(Self.sandboxErrors).union(Self.bareSandboxErrors.keys)
        default: sampled = Self.names(Self.webErrors).union(Self.bareWebErrors.keys)
        }
        #expect(!declared.isEmpty)
        #expect(sampled == declared, "missing: \(declared.subtracting(sampled).sorted()), unknown: \(sampled.subtracting(declared).sorted())")
        // A "bare" sample is a case without values, so its name is the one the test was given.
        let bare: [Any] = Self.bareServiceErrors.values.map { $0 as Any } + Self.bareOutputErrors.values.map { $0 as Any } + Self.bareWebErrors.values.map { $0 as Any }
            + Self.bareSandboxErrors.values.map { $0 as Any }
        for value in bare {
            #expect(Mirror(reflecting: value).children.isEmpty)
        }
    }

    @Test("No domain error's message is worded in the command line: only the protocol composes it")
    func noDomainErrorWordsItsOwnMessage() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Sources/growcert/CLI/DomainError+CLI.swift"), encoding: .utf8)
        var owner = ""
        var wordedBy: Set<String> = []
        for line in text.components(separatedBy: "\n") {
            for word in ["extension ", "struct ", "protocol "] where line.hasPrefix(word) {
                owner = String(line.dropFirst(word.count).prefix { $0 != ":" && $0 != " " })
            }
            if line.contains("var commandLineMessage: String {") { wordedBy.insert(owner) }
        }
        // The requirement and the protocol's composition; the command line's own errors; run start's warnings (not errors); and the two
        // import failures, which quote a line's error in the command line's words (each begins with its own description).
        #expect(wordedBy == ["CommandLineError", "DomainCommandLineError", "CLIError", "UsageError", "RunStartWarning", "ImportLineError", "EvidenceImport.CheckFailure"])
    }

    /// The case names of the values (their mirror's label).
    static func names(_ values: [some Any]) -> Set<String> {
        Set(values.compactMap { Mirror(reflecting: $0).children.first?.label })
    }

    /// The cases `enum type` declares in `Sources/file` (at the enum's own indentation, before its first member).
    static func cases(of type: String, in file: String) throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Sources").appendingPathComponent(file), encoding: .utf8)
        guard let start = text.range(of: "enum \(type):") else { return [] }
        var names: Set<String> = []
        for line in text[start.upperBound...].components(separatedBy: "\n").dropFirst() {
            if line.hasPrefix("    package var") || line.hasPrefix("    package func") || line.hasPrefix("    package static") || line.hasPrefix("}") { break }
            guard line.hasPrefix("    case ") else { continue }
            names.insert(String(line.dropFirst(9).prefix { $0.isLetter || $0.isNumber }))
        }
        return names
    }
}
