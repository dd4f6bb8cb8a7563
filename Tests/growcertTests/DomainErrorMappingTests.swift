import ArgumentsKit
import Evidence
import GrowClient
import Services
import Testing
@testable import growcert

/// The services' and the parser's errors become messages and exit codes in one place, the CLI
/// (`CLI.describe`, through `DomainError+CLI.swift`): each keeps the code and the words it had.
@Suite struct DomainErrorMappingTests {
    static let problem = VerificationProblem(seq: 3, message: "the hash of entry 3 does not match")

    @Test("Every service error maps to the exit code it had", arguments: [
        (ServiceError.unknownExceptedCheck(id: "x", known: ["a"]), Int32(64)), (.checkNotInScenario(id: "x", scenario: "s", checks: ["a"]), 64),
        (.checkNotInCampaign(id: "x", campaignId: "c1", known: ["a"]), 64), (.noCheckLeft(runIds: ["r1"]), 64), (.purchaseNeedsOneRun, 64),
        (.noOpenRun(campaignId: "c1"), 65), (.runOrCampaign, 64), (.orderAndTransactionApart, 64),
        (.transactionNotStoreSigned(transactionId: "t", runId: "r1", recorded: []), 65), (.secondCustomerNeeded(checks: ["a"]), 64),
        (.secondCustomerIsCustomer(customerId: "c"), 64), (.noCredentials(serverKeyUse: "growcert mints short-lived customer tokens with it"), 64), (.noCredentials(serverKeyUse: "the broker's iap_sk_ key"), 64),
        (.serverKeyInvalid(reason: "short"), 65), (.serverKeyNotTheVendors(vendor: "CherrySub", shape: "iap_sk_…"), 65), (.tokenCommandNotRunnable(status: 127), 64),
        (.tokenCommandFailed(reason: "It failed."), 65), (.tokenExpiryInvalid(expiresAt: "soon"), 65), (.tokenCommandCannotRevoke, 65),
        (.tokenNotIssued(baseURL: "http://h", customerId: "c", project: "p", error: .unauthorized(code: .tokenInvalid), campaignId: "c1"), 65),
        (.tokenRefused(baseURL: "http://h", fromTokenCommand: true, customerId: "c", project: "p", error: .unauthorized(code: .tokenInvalid), campaignId: "c1"), 65),
        (.emulatorOrderMissing(orderId: "o", customerId: "c", reason: "404"), 65),
        (.emulatorOrderHasNoReceipt(orderId: "o", transactionId: "t", known: []), 65), (.campaignURLInvalid(baseURL: "::"), 65),
        (.campaignTargetUnusable(reason: "bad."), 65), (.brokerRefused(customerId: "c", reason: "no."), 65),
        (.vendorReadRefused(vendor: "CherrySub", baseURL: "http://h", customerId: "c", reason: "no."), 65), (.transactionNotRecorded(transactionId: "t", runId: "r1"), 65),
        (.purchaseTargetNotLoopback(baseURL: "https://h", host: "h"), 65), (.purchaseTargetUnreachable(baseURL: "http://127.0.0.1:1"), 69),
        (.purchaseTargetNotEmulator(baseURL: "http://127.0.0.1:1", kindHeader: "GrooveGrow-Sandbox-Kind", profile: nil), 65), (.journalEmpty, 65), (.timestampAuthorityUnreachable(url: "http://t", reason: "down"), 69),
        (.timestampAuthorityStatus(url: "http://t", status: 500), 69), (.timestampAnswerRefused(url: "http://t", reason: "bad"), 65),
        (.exportedSignoffUnreadable(folder: "d", file: "statement.sig"), 66), (.notIntact(action: "signed", first: problem, count: 3), 2),
        (.reportFolderNotAFolder(path: "f"), 65), (.demoFolderUnwritable(path: "d", reason: "denied"), 74),
        (.demoDatabaseExists(path: "d/growcert.sqlite"), 65), (.demoUnknownProfile("acme", known: ["groovegrow", "cherrysub"]), 64), (.emulatorSettingInvalid(setting: "project", expected: "a UUID"), 64), (.noPlayLicenseKey(campaignId: "c1"), 65), (.voidedListEmpty(file: "v.json"), 65), (.receiptRefused(file: "r.json", why: "is not JSON"), 65), (.profileTakesNoPlayKey(profile: "cherrysub", proofs: ["manual"]), 64), (.demoDoesNotVerify(problems: [problem]), 74),
    ])
    func serviceErrorCodes(error: ServiceError, code: Int32) {
        let (message, exit) = CLI.describe(error)
        #expect(exit == code, "\(error)")
        // A usage error points at its command's help, and only a usage error does.
        #expect(message.contains("\nSee 'growcert ") == (code == 64), "\(message)")
    }

    @Test("The command line adds the flags and commands; the service's own words name none", arguments: [
        (ServiceError.noCredentials(serverKeyUse: "growcert mints short-lived customer tokens with it"),
         "No credentials: give a server key (growcert mints short-lived customer tokens with it) or a token command. Set GROWCERT_SERVER_KEY in the environment, or pass --token-command CMD.\nSee 'growcert check run --help'."),
        (.noOpenRun(campaignId: "c1"),
         "Campaign 'c1' has no open run: start one per scenario. Nothing was run or recorded. Start them with 'growcert run start --campaign c1 --all-scenarios …'."),
        (.notIntact(action: "signed", first: problem, count: 3),
         "The evidence database does not verify, so nothing was signed: entry 3: the hash of entry 3 does not match (and 2 more problems). Run 'growcert verify' to see every problem."),
        (.tokenRefused(baseURL: "http://h", fromTokenCommand: false, customerId: "c", project: "p", error: .unauthorized(code: .tokenInvalid), campaignId: "c1"),
         "Pre-flight: the Sandbox at 'http://h' refused a token minted with the server key for customer 'c' under project 'p': \(GrowClientErrorText.unauthorized) Check the credentials. Nothing was run or recorded. Check GROWCERT_SERVER_KEY or --token-command."),
        (.demoUnknownProfile("acme", known: ["groovegrow", "cherrysub"]), "The demo knows profiles groovegrow and cherrysub, not 'acme'.\nSee 'growcert demo --help'."),
        (.purchaseTargetUnreachable(baseURL: "http://127.0.0.1:1"),
         "Nothing answered at 'http://127.0.0.1:1'. Start 'growcert sandbox serve' and use the address it prints."),
    ])
    func words(error: ServiceError, message: String) {
        #expect(CLI.describe(error).0 == message)
        #expect(!error.description.contains("--") && !error.description.contains("GROWCERT_"), "\(error.description)")
    }

    @Test func outputErrorsKeepTheirWordsAndCodes() {
        #expect(CLI.describe(OutputError.exists(path: "r.md", replaceable: true)) == ("'r.md' already exists; choose another path, or replace it on purpose. Nothing was written. Give --force to replace it.", 65))
        #expect(CLI.describe(OutputError.exists(path: "k.pem", replaceable: false)) == ("'k.pem' already exists; growcert never replaces it. Choose another path. Nothing was written.", 65))
        #expect(!OutputError.exists(path: "r.md", replaceable: true).description.contains("--force"))
        #expect(CLI.describe(OutputError.cannotWrite(path: "r.md", reason: nil)) == ("Cannot write 'r.md'. Check the folder exists and is writable.", 74))
        #expect(CLI.describe(OutputError.directory(path: "d")).1 == 65)
    }

    @Test func aFailedEmulatorPurchaseIsBadData() {
        #expect(CLI.describe(GrowEmulatorPurchase.Failure.noPurchaseStep) == ("The emulator's funnel has no purchase step, so there is no order to buy.", 65))
    }

    @Test func aUsageErrorOfTheParserIsExit64WithTheCommandsHelp() {
        #expect(CLI.describe(UsageError("Option '--run' needs a value.", command: "check run"))
            == ("Option '--run' needs a value.\nSee 'growcert check run --help'.", 64))
    }

    @Test func runStartWarningsNameTheCommandThatFixesThem() {
        let warning = RunStartWarning.needsStoreAccount(scenario: "purchase-restore-refund", runId: "r1")
        #expect(warning.commandLineMessage == "scenario 'purchase-restore-refund' needs a store sandbox account and run r1 names none: it can never certify. Add the account (growcert account add) and start the run with --account.")
        #expect(!warning.description.contains("growcert "))
    }
}

/// The client core's own words for `unauthorized`, which the pre-flight message quotes.
enum GrowClientErrorText {
    static let unauthorized = "\(GrowClientError.unauthorized(code: .tokenInvalid))"
}
