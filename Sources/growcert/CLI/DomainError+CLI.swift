import ArgumentsKit
import Checks
import Evidence
import GrowClient
import Reports
import Sandbox
import Services
import StoreProof
import WebView

/// An error the command line prints in its own words, with its exit code (sysexits.h).
///
/// The lower modules' errors say what went wrong in their own words, and name no flag, no exit code and no
/// `growcert …` command line; this file adds those, for every domain error, in one place. `CLI.describe` is
/// the only caller.
protocol CommandLineError: Error {
    /// The message as the command line prints it (after `growcert: `).
    var commandLineMessage: String { get }
    /// The process exit code.
    var exitCode: Int32 { get }
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

extension EvidenceError: CommandLineError {
    var commandLineMessage: String {
        switch self {
        case .databaseMissing(let path):
            return description + " Create one with 'growcert init --db \(path)', or point --db (or GROWCERT_DB) at an existing one."
        case .notAnEvidenceDatabase(let path):
            return "'\(path)' is not a growcert evidence database. Check the --db path; growcert never writes into other files."
        case .maskKeyMissing:
            return description + " Or set GROWCERT_MASK_KEY to the key's 64 hexadecimal digits."
        case .reportBytesMissing(let reportId):
            return "The bytes of report \(reportId) are missing from the database. Run 'growcert verify'."
        case .approvalNeedsAcceptedRisk(let reportId, let verdict):
            return "Report \(reportId) says the campaign is \(verdict), not CERTIFIED. To approve it anyway, state the risk you accept with --accept-risk TEXT; it is shown prominently in the report. Nothing was signed."
        case .privilegesMissing(let location, let reading, let detail):
            return "The PostgreSQL database '\(location)' refused this \(reading ? "read" : "write"): \(detail). Check the role's privileges (growcert db init-roles prints them). Nothing was written."
        case .signingKeyUnusable(let why):
            return "Invalid key 'PEM': \(why); create one with 'growcert keys generate --out KEY.pem'."
        default:
            return description
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

extension ServiceError: CommandLineError {
    var commandLineMessage: String {
        let nothing = "Nothing was run or recorded."
        let message: String
        switch self {
        case .unknownExceptedCheck(let id, let known):
            message = usage("Unknown check '\(id)' in --except.\(Suggestion.sentence(for: id, among: known)) Known checks: \(known.joined(separator: ", ")).", "check run")
        case .checkNotInScenario, .checkNotInCampaign:
            message = usage(description, "check run")
        case .noCheckLeft(let runIds):
            message = usage("No check is left to run: --except leaves none of \(Self.runs(runIds))'s checks.", "check run")
        case .purchaseNeedsOneRun:
            message = usage("--order-id and --transaction-id name one run's purchase: give them with --run, not --campaign.", "check run")
        case .noOpenRun(let campaignId):
            message = "Campaign '\(campaignId)' has no open run: start one per scenario (growcert run start --campaign \(campaignId) --all-scenarios …). \(nothing)"
        case .runOrCampaign:
            message = usage("Give --run ID (one run) or --campaign ID (each open run of the campaign), not both.", "check run")
        case .orderAndTransactionApart:
            message = usage("Give --order-id and --transaction-id together.", "check run")
        case .transactionNotStoreSigned(let transactionId, let runId, let recorded):
            message = "Transaction '\(transactionId)' is not a store-signed transaction recorded on run '\(runId)' (\(Self.recorded(recorded))). "
                + "On a hosted Sandbox the purchase checks examine the run's recorded store-signed transaction: record the purchase's JWS "
                + "on the run (growcert evidence add transaction --run \(runId) --jws-file FILE --order-id ORDER), then run the checks "
                + "without --transaction-id. \(nothing)"
        case .secondCustomerNeeded(let checks):
            message = usage("\(Self.theChecks(checks)) \(checks.joined(separator: ", ")) \(checks.count == 1 ? "signs" : "sign") in as a second customer: pass --second-customer CUSTOMER_ID (a Sandbox customer other than --customer), or leave them out with --except. \(nothing)", "check run")
        case .secondCustomerIsCustomer(let customerId):
            message = usage("--second-customer must differ from --customer '\(customerId)'. \(nothing)", "check run")
        case .noCredentials(let use):
            message = usage("No credentials: set GROWCERT_SERVER_KEY in the environment (\(use)), or pass --token-command CMD.", "check run")
        case .serverKeyInvalid(let reason):
            message = "GROWCERT_SERVER_KEY is not a usable server key (\(reason))."
        case .serverKeyNotTheVendors(let vendor, let shape):
            message = "GROWCERT_SERVER_KEY is not a \(vendor) secret key (\(shape)). \(nothing)"
        case .tokenCommandNotRunnable(let status):
            message = usage("Pre-flight: the token command was not found or cannot be run (exit status \(status)). Check --token-command: growcert runs it as 'CMD CUSTOMER_ID [TTL]' through /bin/sh. \(nothing)", "check run")
        case .tokenNotIssued(let baseURL, let customerId, let project, let error, let campaignId):
            message = "Pre-flight: the Sandbox at '\(baseURL)' did not issue a customer token for '\(customerId)' with GROWCERT_SERVER_KEY for project '\(project)': \(error) \(Self.advice(error, campaignId: campaignId)) \(nothing)"
        case .tokenRefused(let baseURL, let fromTokenCommand, let customerId, let project, let error, let campaignId):
            let source = fromTokenCommand ? "the token command's token" : "a token minted with GROWCERT_SERVER_KEY"
            message = "Pre-flight: the Sandbox at '\(baseURL)' refused \(source) for customer '\(customerId)' under project '\(project)': \(error) \(Self.advice(error, campaignId: campaignId)) \(nothing)"
        case .emulatorOrderMissing(let orderId, let customerId, let reason):
            message = "Pre-flight: order '\(orderId)' does not exist on the emulator for customer '\(customerId)' (\(reason)). Give the order 'growcert sandbox purchase' printed, or leave out --order-id and --transaction-id to let the checks buy their own. \(nothing)"
        case .brokerRefused(let customerId, let reason):
            message = "Pre-flight: the broker did not issue a customer token for app user '\(customerId)': \(reason) Check GROWCERT_SERVER_KEY or --token-command. \(nothing)"
        case .transactionNotRecorded(let transactionId, let runId):
            message = "Transaction '\(transactionId)' is not recorded with its JWS on run '\(runId)': record it first (growcert evidence add transaction --run \(runId) --jws-file FILE). \(nothing)"
        case .purchaseTargetNotLoopback(let baseURL, let host):
            message = "'\(baseURL)' is not the local emulator: 'growcert sandbox purchase' only buys on 'growcert sandbox serve' (a loopback address, here '\(host)'). On the hosted Sandbox, buy in the app on a physical device. Nothing was sent."
        case .purchaseTargetUnreachable(let baseURL):
            message = "Nothing answered at '\(baseURL)': start 'growcert sandbox serve' and use the address it prints."
        case .purchaseTargetNotEmulator(let baseURL, let header, let profile):
            message = "'\(baseURL)' did not declare '\(header): emulator': 'growcert sandbox purchase' only buys on 'growcert sandbox serve\(profile.map { " --profile " + $0 } ?? "")'. Nothing was bought."
        case .exportedSignoffUnreadable(let folder, let file):
            message = "Cannot read '\(folder)/\(file)': an exported sign-off folder holds statement.json, statement.sig and public.pem ('growcert signoff export')."
        case .notIntact(let action, let first, let count):
            message = "The evidence database does not verify, so nothing was \(action): \(first)\(Self.more(count)). Run 'growcert verify' to see every problem."
        case .reportFolderNotAFolder(let path):
            message = "'\(path)' is not a folder: with several formats or languages, --out names a folder. Nothing was rendered."
        case .demoDatabaseExists(let path):
            message = "'\(path)' already exists; the demo starts from a fresh database. Remove it or choose another --out."
        case .demoUnknownProfile:
            message = usage(description, "demo")
        case .profileTakesNoPlayKey(let profile, let proofs):
            message = usage("Profile '\(profile)' accepts no signed Google Play purchases (its store proofs: \(proofs.joined(separator: ", "))), so it takes no --play-license-key. Nothing was changed.", "campaign")
        case .noPlayLicenseKey(let campaignId):
            message = "Campaign \(campaignId) has no Play license key, so the purchase's signature cannot be verified. Record the key Play Console shows under Monetize › Licensing (growcert campaign update \(campaignId) --play-license-key FILE), then record the purchase again. Nothing was written."
        case .emulatorSettingInvalid(let setting, let expected):
            message = usage("--\(setting) takes \(expected).", "sandbox serve")
        case .voidedListEmpty, .receiptRefused, .tokenCommandFailed, .tokenExpiryInvalid, .tokenCommandCannotRevoke, .emulatorOrderHasNoReceipt, .campaignURLInvalid, .campaignTargetUnusable,
             .vendorReadRefused, .journalEmpty,
             .timestampAuthorityUnreachable, .timestampAuthorityStatus, .timestampAnswerRefused, .demoFolderUnwritable, .demoDoesNotVerify,
             .verdictNotReproduced:
            message = description
        }
        return SecretScanner.redact(message)
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

    /// What to fix for a credential the Sandbox refused.
    static func advice(_ error: GrowClientError, campaignId: String) -> String {
        switch error {
        case .scopeMismatch:
            return "The campaign's project must be the App UUID the credentials belong to (growcert campaign update \(campaignId) --project UUID)."
        case .unauthorized:
            return "Check GROWCERT_SERVER_KEY or --token-command."
        default:
            return "Check the campaign's project and the credentials."
        }
    }
}

extension OutputError: CommandLineError {
    var commandLineMessage: String {
        switch self {
        case .exists(let path, true): return "'\(path)' already exists; give --force to replace it, or choose another path. Nothing was written."
        case .notToStandardOutput: return usage("--out - means standard output, and this is written only to a file (a private key never goes to a terminal or a pipe): give --out FILE. Nothing was written.", "")
        case .folderNotStandardOutput: return usage("--out - means standard output, which holds one file; this writes a folder of several files: give --out DIR. Nothing was written.", "")
        default: return SecretScanner.redact(description)
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
    /// The warning as `run start` prints it, with the command that fixes it.
    var commandLineMessage: String {
        switch self {
        case .needsPhysicalDevice:
            return description + " Add a physical device (growcert device add --kind physical) and start the run on it."
        case .needsStoreAccount:
            return description + " Add the account (growcert account add) and start the run with --account."
        case .notHostedSandbox(let campaignId, _, _):
            return description + " Point the campaign at the hosted Sandbox (growcert campaign update \(campaignId) --base-url https://…)."
        case .noOutsideClock:
            return description + " Check the network and the campaign's base URL, then start the run again."
        case .clockDisagrees:
            return description + " Set this machine's clock right (timedatectl, NTP)."
        }
    }
}

extension CheckError: CommandLineError {
    var commandLineMessage: String { description }

    var exitCode: Int32 {
        switch self {
        case .unreachable: return ExitCode.unavailable
        case .unknownCheck: return ExitCode.usage
        case .noSuite, .wrongTarget: return ExitCode.dataError
        }
    }
}

extension GrowEmulatorPurchase.Failure: CommandLineError {
    var commandLineMessage: String { SecretScanner.redact(description) }
    var exitCode: Int32 { ExitCode.dataError }
}

extension GrowClientError: CommandLineError {
    var commandLineMessage: String { description }
    var exitCode: Int32 { ExitCode.dataError }
}

extension StoreProofError: CommandLineError {
    var commandLineMessage: String { description }
    var exitCode: Int32 { ExitCode.dataError }
}

extension StaleReportError: CommandLineError {
    var commandLineMessage: String {
        "Report \(reportId) is not current: campaign \(campaignId) has \(newerEntries) newer evidence \(newerEntries == 1 ? "entry" : "entries") since journal entry \(judgedAtSeq), where the report was judged. Render a new report and sign that one, or sign this one anyway with --accept-stale (the statement records it). Nothing was signed."
    }
    var exitCode: Int32 { ExitCode.dataError }
}

extension ReportError: CommandLineError {
    var commandLineMessage: String { description }

    var exitCode: Int32 {
        switch self {
        case .templateDirectoryMissing: return ExitCode.noInput
        default: return ExitCode.dataError
        }
    }
}

extension SandboxError: CommandLineError {
    var commandLineMessage: String { description }

    var exitCode: Int32 {
        switch self {
        case .invalidConfiguration: return ExitCode.usage
        case .bindFailed, .serverStartFailed, .alreadyStarted: return ExitCode.unavailable
        case .crypto: return ExitCode.software
        }
    }
}

extension WorkspaceError: CommandLineError {
    var commandLineMessage: String {
        let file = Workspace.fileName
        switch self {
        case .emptyDatabase(fromEnvironment: false):
            return usage("--db is empty: give the evidence database's path or postgresql:// URL, or leave --db out to use the database of the \(file) in this folder or above.", "")
        case .emptyDatabase(fromEnvironment: true):
            return usage("GROWCERT_DB is set but empty: set it to the evidence database's path or postgresql:// URL, or unset it (unset GROWCERT_DB) to use the database of the \(file) in this folder or above.", "")
        case .relativeEnvironment(let value, let resolved, let workspace):
            return usage("GROWCERT_DB is the relative path '\(value)', which names '\(resolved)' from this folder, and there is no database there. "
                + "This folder is inside the workspace '\(workspace.folder)', whose database is '\(workspace.database)': unset GROWCERT_DB "
                + "(unset GROWCERT_DB) to use it, or set GROWCERT_DB to an absolute path. Nothing was done.", "")
        case .unreadable(let path, let reason):
            return "The workspace file '\(path)' \(reason). Fix or remove it ('growcert init' in that folder writes it again), or give --db. Nothing was done."
        case .notOwned(let path):
            return "The workspace file '\(path)' belongs to another user, so growcert does not follow it (it could send your evidence into their database). "
                + "Remove it if it is not yours, or give --db (or GROWCERT_DB). Nothing was done."
        case .otherDatabase(let workspace, let requested):
            return usage("This folder's \(file) names the evidence database '\(workspace.database)', not '\(requested)'. One folder is one workspace: "
                + "run 'growcert init' for another database in another folder. Nothing was created.", "init")
        case .noWorkspace(let database):
            return usage("No \(file) names the database '\(database)', so there is nowhere to keep a current campaign. Run 'growcert campaign use' in the folder where you ran 'growcert init' (or below it), or give --campaign ID to each command.", "campaign use")
        case .databaseMissing(let path, .workspace, let workspace?):
            return "The workspace file '\(workspace.path)' names the evidence database '\(path)', which does not exist: it was moved or deleted. "
                + "Put it back, or point --db (or GROWCERT_DB) at where it is now. Nothing was done."
        case .databaseMissing(let path, .defaultFile, _):
            let folder = String(path.dropLast(DatabaseLocation.defaultFileName.count + 1))
            return "No evidence database here: no \(file) in '\(folder)' or any folder above it, and neither --db nor GROWCERT_DB is set. "
                + "Run growcert in the folder where you ran 'growcert init' (or below it), or point --db (or GROWCERT_DB) at the database's absolute path. "
                + "To start a new, empty evidence database in this folder: growcert init."
        case .databaseMissing(let path, _, let workspace?):
            return "No evidence database at '\(path)'. This folder is inside the workspace '\(workspace.folder)', whose database is '\(workspace.database)': "
                + "leave out --db and GROWCERT_DB to use it, or give the path of an existing database. Nothing was done."
        case .databaseMissing(let path, _, nil):
            return "No evidence database at '\(path)'. Check the path, or create one with 'growcert init --db \(path)'."
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

extension WebError: CommandLineError {
    var commandLineMessage: String {
        switch self {
        case .noServer:
            return description + " Start one with 'growcert serve --bind ADDRESS' (an address the phone can reach, see docs/web.md), then run 'growcert run share' again."
        case .unspecifiedAddress:
            return usage(description, "serve")
        default:
            return description
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
