import ArgumentsKit
import Checks
import Evidence
import GrowClient
import Reports
import Sandbox
import Services
import StoreProof
import WebView

/// An error the command line prints, with its exit code (sysexits.h).
protocol CommandLineError: Error {
    /// The message as the command line prints it (after `growcert: `).
    var commandLineMessage: String { get }
    /// The process exit code.
    var exitCode: Int32 { get }
}

/// A lower module's error, whose words live in one place: its own `description`.
///
/// The lower modules say what went wrong (and what to do) in their own words, and name no flag, no exit code and
/// no `growcert …` command line. The command line prints those words as they are and adds after them only what
/// it alone knows: the flag or command that fixes it (`commandLineHint`), the pointer to a command's `--help`
/// for a usage error (`helpCommand`), and the exit code. It never words a case again; a test
/// (`OneHomeForErrorWordsTests`) fails when a message does not begin with its error's description.
protocol DomainCommandLineError: CommandLineError, CustomStringConvertible {
    /// What only the command line knows that fixes the error (a flag, a command), a sentence or two after the
    /// description; nil when the description says all.
    var commandLineHint: String? { get }
    /// The command whose `--help` the message points at (`""` for growcert's own); nil for no pointer.
    var helpCommand: String? { get }
    /// Whether the message is passed through `SecretScanner.redact` (errors that quote what a server or a command
    /// printed); the others redact the values they quote themselves, and their own words ("a Bearer credential")
    /// must stay as they are.
    var redactsMessage: Bool { get }
}

extension DomainCommandLineError {
    var commandLineHint: String? { nil }
    var helpCommand: String? { nil }
    var redactsMessage: Bool { false }

    var commandLineMessage: String {
        let words = ([description] + (commandLineHint.map { [$0] } ?? [])).map { redactsMessage ? SecretScanner.redact($0) : $0 }.joined(separator: " ")
        return helpCommand.map { CLIError.usage(words, command: $0).description } ?? words
    }
}

/// A usage error's message: `message`, then where the command's help is.
private func usage(_ message: String, _ command: String) -> String { CLIError.usage(message, command: command).description }

extension CLIError: CommandLineError {
    var commandLineMessage: String { SecretScanner.redact(description) }
}

extension UsageError: CommandLineError {
    var commandLineMessage: String { SecretScanner.redact(usage(message, command)) }
    var exitCode: Int32 { ExitCode.usage }
}

extension EvidenceError: DomainCommandLineError {
    var commandLineHint: String? {
        switch self {
        case .databaseMissing(let path): return "Create one with 'growcert init --db \(path)', or point --db (or GROWCERT_DB) at an existing one."
        case .notAnEvidenceDatabase: return "Check the --db path."
        case .maskKeyMissing: return "Or set GROWCERT_MASK_KEY to the key's 64 hexadecimal digits."
        case .reportBytesMissing: return "Run 'growcert verify'."
        case .approvalNeedsAcceptedRisk: return "State it with --accept-risk TEXT."
        case .privilegesMissing: return "'growcert db init-roles' prints the privileges each role needs."
        case .signingKeyUnusable: return "Create one with 'growcert keys generate --out KEY.pem'."
        default: return nil
        }
    }

    var exitCode: Int32 {
        switch self {
        case .databaseMissing, .fileMissing, .maskKeyMissing: return ExitCode.noInput
        case .notAnEvidenceDatabase, .damaged, .unreadableValue, .mistypedValue, .maskKeyMismatch, .databaseTooNew, .unknown, .invalidValue,
             .secretRefused, .fileTooLarge, .conflict, .approvalNeedsAcceptedRisk, .signingKeyUnusable: return ExitCode.dataError
        case .io, .commitUnacknowledged, .reportBytesMissing, .privilegesMissing: return ExitCode.ioError
        case .internalFailure, .missingColumn: return ExitCode.software
        }
    }
}

extension ServiceError: DomainCommandLineError {
    var redactsMessage: Bool { true }

    var commandLineHint: String? {
        switch self {
        case .unknownExceptedCheck: return "Check the ids given to --except."
        case .noCheckLeft: return "Leave fewer out with --except."
        case .purchaseNeedsOneRun: return "Give --order-id and --transaction-id with --run, not --campaign."
        case .noOpenRun(let campaignId): return "Start them with 'growcert run start --campaign \(campaignId) --all-scenarios …'."
        case .runOrCampaign: return "Give --run ID or --campaign ID."
        case .orderAndTransactionApart: return "Give --order-id with --transaction-id."
        case .transactionNotStoreSigned(_, let runId, _):
            return "Record the purchase's JWS with 'growcert evidence add transaction --run \(runId) --jws-file FILE --order-id ORDER', then leave out --transaction-id."
        case .secondCustomerNeeded: return "Pass --second-customer CUSTOMER_ID (a Sandbox customer other than --customer), or leave them out with --except."
        case .secondCustomerIsCustomer: return "Give --second-customer another customer than --customer."
        case .noCredentials: return "Set GROWCERT_SERVER_KEY in the environment, or pass --token-command CMD."
        case .serverKeyInvalid, .serverKeyNotTheVendors: return "Check GROWCERT_SERVER_KEY."
        case .tokenCommandNotRunnable: return "Check --token-command."
        case .tokenCommandCannotRevoke: return "Set GROWCERT_SERVER_KEY instead of --token-command, or leave these checks out with --except."
        case .tokenNotIssued(_, _, _, let error, let campaignId), .tokenRefused(_, _, _, _, let error, let campaignId):
            switch error {
            case .scopeMismatch: return "Set it with 'growcert campaign update \(campaignId) --project UUID'."
            case .unauthorized: return "Check GROWCERT_SERVER_KEY or --token-command."
            default: return nil
            }
        case .emulatorOrderMissing: return "'growcert sandbox purchase' prints the order it sold; without --order-id and --transaction-id the checks buy their own."
        case .brokerRefused: return "Check GROWCERT_SERVER_KEY or --token-command."
        case .transactionNotRecorded(_, let runId): return "Record it with 'growcert evidence add transaction --run \(runId) --jws-file FILE'."
        case .purchaseTargetNotLoopback: return "'growcert sandbox purchase' only buys on 'growcert sandbox serve'."
        case .purchaseTargetUnreachable: return "Start 'growcert sandbox serve' and use the address it prints."
        case .purchaseTargetNotEmulator(_, _, let profile):
            return "'growcert sandbox purchase' only buys on 'growcert sandbox serve\(profile.map { " --profile " + $0 } ?? "")'."
        case .exportedSignoffUnreadable: return "'growcert signoff export' writes them."
        case .notIntact: return "Run 'growcert verify' to see every problem."
        case .reportFolderNotAFolder: return "Give --out a folder."
        case .demoDatabaseExists: return "Give another folder with --out."
        case .profileTakesNoPlayKey: return "Leave out --play-license-key."
        case .noPlayLicenseKey(let campaignId): return "Record it with 'growcert campaign update \(campaignId) --play-license-key FILE'."
        case .emulatorSettingInvalid(let setting, _): return "Fix --\(setting)."
        case .checkNotInScenario, .checkNotInCampaign, .demoUnknownProfile, .voidedListEmpty, .receiptRefused, .tokenCommandFailed, .tokenExpiryInvalid,
             .emulatorOrderHasNoReceipt, .campaignURLInvalid, .campaignTargetUnusable, .vendorReadRefused, .journalEmpty,
             .timestampAuthorityUnreachable, .timestampAuthorityStatus, .timestampAnswerRefused, .demoFolderUnwritable, .demoDoesNotVerify,
             .verdictNotReproduced:
            return nil
        }
    }

    var helpCommand: String? {
        switch self {
        case .unknownExceptedCheck, .checkNotInScenario, .checkNotInCampaign, .noCheckLeft, .purchaseNeedsOneRun, .runOrCampaign,
             .orderAndTransactionApart, .secondCustomerNeeded, .secondCustomerIsCustomer, .noCredentials, .tokenCommandNotRunnable:
            return "check run"
        case .demoUnknownProfile: return "demo"
        case .profileTakesNoPlayKey: return "campaign"
        case .emulatorSettingInvalid: return "sandbox serve"
        default: return nil
        }
    }

    var exitCode: Int32 {
        switch self {
        case .unknownExceptedCheck, .checkNotInScenario, .checkNotInCampaign, .noCheckLeft, .purchaseNeedsOneRun, .runOrCampaign,
             .orderAndTransactionApart, .secondCustomerNeeded, .secondCustomerIsCustomer, .noCredentials, .tokenCommandNotRunnable,
             .demoUnknownProfile, .emulatorSettingInvalid, .profileTakesNoPlayKey:
            return ExitCode.usage
        case .noOpenRun, .transactionNotStoreSigned, .serverKeyInvalid, .serverKeyNotTheVendors, .tokenCommandFailed, .tokenExpiryInvalid,
             .tokenCommandCannotRevoke, .tokenNotIssued, .tokenRefused, .emulatorOrderMissing, .emulatorOrderHasNoReceipt, .campaignURLInvalid,
             .campaignTargetUnusable, .brokerRefused, .vendorReadRefused, .transactionNotRecorded, .purchaseTargetNotLoopback,
             .purchaseTargetNotEmulator, .journalEmpty, .noPlayLicenseKey, .voidedListEmpty, .receiptRefused,
             .timestampAnswerRefused, .reportFolderNotAFolder, .demoDatabaseExists:
            return ExitCode.dataError
        case .exportedSignoffUnreadable: return ExitCode.noInput
        case .purchaseTargetUnreachable, .timestampAuthorityUnreachable, .timestampAuthorityStatus: return ExitCode.unavailable
        case .demoFolderUnwritable, .demoDoesNotVerify: return ExitCode.ioError
        case .notIntact, .verdictNotReproduced: return ExitCode.tampered
        }
    }
}

extension OutputError: DomainCommandLineError {
    var redactsMessage: Bool { true }

    var commandLineHint: String? {
        switch self {
        case .exists(_, true): return "Give --force to replace it."
        case .notToStandardOutput: return "Give --out FILE."
        case .folderNotStandardOutput: return "Give --out DIR."
        default: return nil
        }
    }

    var helpCommand: String? {
        switch self {
        case .notToStandardOutput, .folderNotStandardOutput: return ""
        default: return nil
        }
    }

    var exitCode: Int32 {
        switch self {
        case .cannotWrite, .cannotWriteInto: return ExitCode.ioError
        case .evidenceDatabase, .directory, .notRegular, .exists: return ExitCode.dataError
        case .notToStandardOutput, .folderNotStandardOutput: return ExitCode.usage
        }
    }
}

extension RunStartWarning {
    /// What only the command line knows that fixes the warning: the command to run.
    var commandLineHint: String {
        switch self {
        case .needsPhysicalDevice: return "Add a physical device (growcert device add --kind physical) and start the run on it."
        case .needsStoreAccount: return "Add the account (growcert account add) and start the run with --account."
        case .notHostedSandbox(let campaignId, _, _): return "Point the campaign at the hosted Sandbox (growcert campaign update \(campaignId) --base-url https://…)."
        case .noOutsideClock: return "Check the network and the campaign's base URL, then start the run again."
        case .clockDisagrees: return "Set this machine's clock right (timedatectl, NTP)."
        }
    }

    /// The warning as `run start` prints it: its words, then the command that fixes it.
    var commandLineMessage: String { description + " " + commandLineHint }
}

extension CheckError: DomainCommandLineError {
    var commandLineHint: String? {
        switch self {
        case .unknownCheck: return "Check the ids given to --check."
        case .unreachable, .noSuite, .wrongTarget: return nil
        }
    }

    var helpCommand: String? {
        switch self {
        case .unknownCheck: return "check run"
        case .unreachable, .noSuite, .wrongTarget: return nil
        }
    }

    var exitCode: Int32 {
        switch self {
        case .unreachable: return ExitCode.unavailable
        case .unknownCheck: return ExitCode.usage
        case .noSuite, .wrongTarget: return ExitCode.dataError
        }
    }
}

extension GrowEmulatorPurchase.Failure: DomainCommandLineError {
    var redactsMessage: Bool { true }
    var exitCode: Int32 { ExitCode.dataError }
}

extension GrowClientError: DomainCommandLineError {
    var exitCode: Int32 { ExitCode.dataError }
}

extension StoreProofError: DomainCommandLineError {
    var commandLineHint: String? {
        if case .googleProductMismatch = self { return "Check --product-id." }
        return nil
    }
    var exitCode: Int32 { ExitCode.dataError }
}

extension StaleReportError: DomainCommandLineError {
    var commandLineHint: String? { "Sign it anyway with --accept-stale." }
    var exitCode: Int32 { ExitCode.dataError }
}

extension ReportError: DomainCommandLineError {
    var exitCode: Int32 {
        switch self {
        case .templateDirectoryMissing: return ExitCode.noInput
        default: return ExitCode.dataError
        }
    }
}

extension SandboxError: DomainCommandLineError {
    var commandLineHint: String? {
        switch self {
        case .invalidConfiguration: return "Fix the option that sets it."
        case .bindFailed, .serverStartFailed, .alreadyStarted, .crypto: return nil
        }
    }

    var helpCommand: String? {
        switch self {
        case .invalidConfiguration: return "sandbox serve"
        case .bindFailed, .serverStartFailed, .alreadyStarted, .crypto: return nil
        }
    }

    var exitCode: Int32 {
        switch self {
        case .invalidConfiguration: return ExitCode.usage
        case .bindFailed, .serverStartFailed, .alreadyStarted: return ExitCode.unavailable
        case .crypto: return ExitCode.software
        }
    }
}

extension WorkspaceError: DomainCommandLineError {
    var commandLineHint: String? {
        switch self {
        case .emptyDatabase(fromEnvironment: false): return "Fix --db, or leave it out."
        case .emptyDatabase(fromEnvironment: true), .relativeEnvironment: return nil
        case .unreadable: return "'growcert init' in that folder writes it again; --db names a database without it."
        case .notOwned: return "Name it with --db (or GROWCERT_DB)."
        case .otherDatabase: return "Run 'growcert init' there."
        case .noWorkspace: return "Run 'growcert campaign use' in the folder where you ran 'growcert init' (or below it), or give --campaign ID to each command."
        case .databaseMissing(_, .workspace, _?): return "Point --db (or GROWCERT_DB) at where it is now."
        case .databaseMissing(_, .defaultFile, _):
            return "Neither --db nor GROWCERT_DB is set. Run growcert in the folder where you ran 'growcert init' (or below it), or point --db "
                + "(or GROWCERT_DB) at the database's absolute path. To start a new, empty evidence database in this folder: growcert init."
        case .databaseMissing(_, _, _?): return "Leave out --db and GROWCERT_DB to use the workspace's database."
        case .databaseMissing(let path, _, nil): return "Check the path, or create one with 'growcert init --db \(path)'."
        }
    }

    var helpCommand: String? {
        switch self {
        case .emptyDatabase, .relativeEnvironment: return ""
        case .otherDatabase: return "init"
        case .noWorkspace: return "campaign use"
        case .unreadable, .notOwned, .databaseMissing: return nil
        }
    }

    var exitCode: Int32 {
        switch self {
        case .emptyDatabase, .relativeEnvironment, .otherDatabase, .noWorkspace: return ExitCode.usage
        case .unreadable, .notOwned: return ExitCode.dataError
        case .databaseMissing: return ExitCode.noInput
        }
    }
}

extension WebError: DomainCommandLineError {
    var commandLineHint: String? {
        switch self {
        case .noServer: return "Start one with 'growcert serve --bind ADDRESS' (an address the phone can reach, see docs/web.md), then run 'growcert run share' again."
        case .badExpiry: return "Fix --expires."
        default: return nil
        }
    }

    var helpCommand: String? {
        switch self {
        case .unspecifiedAddress: return "serve"
        case .badExpiry: return "run share"
        default: return nil
        }
    }

    var exitCode: Int32 {
        switch self {
        case .noServer: return ExitCode.unavailable
        case .unspecifiedAddress, .badExpiry: return ExitCode.usage
        case .cannotListen: return ExitCode.ioError
        case .serverRefused: return ExitCode.dataError
        }
    }
}

extension EvidenceImportError: DomainCommandLineError {
    var commandLineHint: String? {
        switch self {
        case .importedBefore: return "To record only the lines not yet recorded, import it with --resume."
        default: return nil
        }
    }

    var helpCommand: String? { self == .resumeNeedsRegularFile ? "evidence import" : nil }

    var exitCode: Int32 {
        switch self {
        case .resumeNeedsRegularFile: return ExitCode.usage
        case .unreadable: return ExitCode.ioError
        default: return ExitCode.dataError
        }
    }
}

/// A bad line stopped `evidence import`: the line's error in the command line's words, what was recorded before it,
/// and the `--from-line` (or, for a commit whose answer was lost, the whole resuming command) that imports the rest.
struct ImportLineError: CommandLineError {
    let failure: EvidenceImport.LineFailure
    /// The command that resumes this import without recording a line twice (nil for stdin, whose lines carry no import key).
    let resumeCommand: String?

    var commandLineMessage: String {
        let f = failure
        let items = f.recorded == 1 ? "the 1 item" : "the \(f.recorded) items"
        let before = f.recorded == 0 ? "nothing was recorded before it" : "\(items) before it were recorded (\(f.first ?? "")…\(f.last ?? ""))"
        if case EvidenceError.commitUnacknowledged(let location, let detail) = f.underlying {
            let next = resumeCommand.map { "When the database is back, finish the import with this command: it skips every line already recorded (this one too, if it was), so none is recorded twice:\n  \($0)" }
                ?? "Lines read from stdin or a pipe carry no import key: look at the run's last items (growcert evidence list) before you import the rest."
            return "Line \(f.line) of '\(f.path)': the connection to the database '\(location)' was lost while the line was being committed (\(detail)): the line may or may not have been written; \(before). " + next
        }
        var (why, _) = CLI.describe(f.underlying)
        for tail in [" Nothing was written; free space and record again.", " Nothing was written."] where why.hasSuffix(tail) {
            why.removeLast(tail.count)
        }
        return "Line \(f.line) of '\(f.path)': \(why) Nothing of that line was written; \(before). \(exitCode == ExitCode.ioError ? "Free space (or fix the file) and" : "Fix the line and") import the rest with --from-line \(f.line)."
    }

    var exitCode: Int32 { CLI.describe(failure.underlying).1 }
}

/// A dry run of `evidence import` found bad lines: each one, in the command line's words; nothing was written.
extension EvidenceImport.CheckFailure: CommandLineError {
    var commandLineMessage: String {
        let lines = problems.map { p -> String in
            var (why, _) = CLI.describe(p.error)
            if why.hasSuffix(" Nothing was written.") { why.removeLast(" Nothing was written.".count) }
            return "  line \(p.line): \(why)"
        }
        let bad = problems.count == 1 ? "1 bad line" : "\(problems.count) bad lines"
        return "Dry run of '\(path)': \(bad) of \(checked) checked; nothing was written. Fix them and import again:\n" + lines.joined(separator: "\n")
    }

    var exitCode: Int32 { problems.map { CLI.describe($0.error).1 }.max() ?? ExitCode.dataError }
}
