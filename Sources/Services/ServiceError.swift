import Evidence
import GrowClient

/// Why a service could not do what it was asked: the set-up mistakes of a check run, a refused purchase
/// target, a timestamp authority's refusal, a database that does not verify, a demo that cannot start.
///
/// The cases carry what went wrong, as data; `description` says it in the services' own words, which
/// name no flag, no exit code and no command line. These are the only words of each case: the command line
/// prints them as they are and adds only what it alone knows (the flag or command that fixes it) after them,
/// with an exit code, in one place (`growcert/CLI/DomainError+CLI.swift`).
package enum ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    // MARK: Check run: which runs and checks

    /// A check left out is no check of the campaign's suite.
    case unknownExceptedCheck(id: String, known: [String])
    /// A check named for one run is no check of its scenario.
    case checkNotInScenario(id: String, scenario: String, checks: [String])
    /// A check named for a campaign is no check of any of its open runs' scenarios.
    case checkNotInCampaign(id: String, campaignId: String, known: [String])
    /// The checks left out are every check of the selected runs.
    case noCheckLeft(runIds: [String])
    /// An order and a transaction were named for a whole campaign instead of one run.
    case purchaseNeedsOneRun
    /// A campaign was named, and it has no open run.
    case noOpenRun(campaignId: String)
    /// Both a run and a campaign were named (or neither).
    case runOrCampaign
    /// An order was named without its transaction, or a transaction without its order.
    case orderAndTransactionApart
    /// A hosted purchase names a transaction that is not a store-signed one recorded on the run.
    case transactionNotStoreSigned(transactionId: String, runId: String, recorded: [String])

    // MARK: Check run: customers and credentials

    /// Checks that sign in as a second customer were selected and none was named.
    case secondCustomerNeeded(checks: [String])
    /// The second customer is the customer.
    case secondCustomerIsCustomer(customerId: String)
    /// Neither a server key nor a token command was given; `serverKeyUse` is what the vendor's key is for.
    case noCredentials(serverKeyUse: String)
    /// The server key is not one.
    case serverKeyInvalid(reason: String)
    /// The server key does not have the shape of the vendor's secret key.
    case serverKeyNotTheVendors(vendor: String, shape: String)
    /// `/bin/sh` could not find or run the token command (exit status 126 or 127).
    case tokenCommandNotRunnable(status: Int32)
    /// The token command ran and failed, or printed no token.
    case tokenCommandFailed(reason: String)
    /// The token command's `expiresAt` is not an RFC 3339 time.
    case tokenExpiryInvalid(expiresAt: String)
    /// A token command cannot revoke; the checks that revoke need the secret key.
    case tokenCommandCannotRevoke

    // MARK: Check run: the pre-flight against the target

    /// The Sandbox did not issue a customer token with the server key.
    case tokenNotIssued(baseURL: String, customerId: String, project: String, error: GrowClientError, campaignId: String)
    /// The Sandbox refused the customer token (from the token command when `fromTokenCommand`).
    case tokenRefused(baseURL: String, fromTokenCommand: Bool, customerId: String, project: String, error: GrowClientError, campaignId: String)
    /// The order named on the emulator does not exist for the customer.
    case emulatorOrderMissing(orderId: String, customerId: String, reason: String)
    /// The order named on the emulator has no receipt for the transaction.
    case emulatorOrderHasNoReceipt(orderId: String, transactionId: String, known: [String])
    /// The campaign's base URL is not a URL.
    case campaignURLInvalid(baseURL: String)
    /// The campaign's target (publishable key) or base URL cannot be used.
    case campaignTargetUnusable(reason: String)
    /// The vendor's token broker issued no customer token.
    case brokerRefused(customerId: String, reason: String)
    /// The vendor refused an authenticated read with the broker's token.
    case vendorReadRefused(vendor: String, baseURL: String, customerId: String, reason: String)
    /// The transaction named is not recorded with its JWS on the run.
    case transactionNotRecorded(transactionId: String, runId: String)

    // MARK: Sandbox purchase

    /// The purchase target is not a loopback address.
    case purchaseTargetNotLoopback(baseURL: String, host: String)
    /// Nothing answered at the purchase target.
    case purchaseTargetUnreachable(baseURL: String)
    /// The purchase target did not declare itself the emulator in the vendor's kind header; `profile` is the
    /// emulator's profile when it is not the standard vendor's.
    case purchaseTargetNotEmulator(baseURL: String, kindHeader: String, profile: String?)

    // MARK: Anchor

    /// The journal has no head to timestamp.
    case journalEmpty
    /// The timestamp authority could not be reached.
    case timestampAuthorityUnreachable(url: String, reason: String)
    /// The timestamp authority answered with another status than 200.
    case timestampAuthorityStatus(url: String, status: Int)
    /// The timestamp authority's answer was refused.
    case timestampAnswerRefused(url: String, reason: String)

    // MARK: Verify

    /// A file of an exported sign-off folder cannot be read.
    case exportedSignoffUnreadable(folder: String, file: String)
    /// The database did not verify, so `action` was not done.
    case notIntact(action: String, first: VerificationProblem, count: Int)
    /// A stored report's verdict is not the one this growcert judges its evidence to have.
    case verdictNotReproduced(reportId: String, stored: String, judged: String)

    // MARK: Reports and the demo

    /// Several renditions go into a folder, and the path is not one.
    case reportFolderNotAFolder(path: String)
    /// The demo's folder cannot be created.
    case demoFolderUnwritable(path: String, reason: String)
    /// The demo's database already exists.
    case demoDatabaseExists(path: String)
    /// The demo knows no such profile.
    case demoUnknownProfile(String, known: [String])
    /// A signed Google Play purchase was given for a campaign with no Play license key to verify it with.
    case noPlayLicenseKey(campaignId: String)
    /// A Play license key was given for a profile that accepts no signed Google Play purchase (`proofs`: what it accepts).
    case profileTakesNoPlayKey(profile: String, proofs: [String])
    /// A saved Sandbox answer cannot be this order's receipt (`why`: what is wrong with the file).
    case receiptRefused(file: String, why: String)
    /// A Play Developer API voided-purchases file lists no purchase.
    case voidedListEmpty(file: String)
    /// A setting of a vendor's emulator has no usable value.
    case emulatorSettingInvalid(setting: String, expected: String)
    /// The demo's own database does not verify (a defect).
    case demoDoesNotVerify(problems: [VerificationProblem])


    static let nothingRun = "Nothing was run or recorded."

    /// What went wrong and what to do, in words without flags or command lines (the command line adds those).
    package var description: String {
        let nothing = Self.nothingRun
        switch self {
        case .unknownExceptedCheck(let id, let known):
            return "Unknown check '\(id)' among the checks left out.\(Suggestion.sentence(for: id, among: known)) Known checks: \(known.joined(separator: ", "))."
        case .checkNotInScenario(let id, let scenario, let checks):
            return "Check '\(id)' is not a check of scenario '\(scenario)'.\(Suggestion.sentence(for: id, among: checks)) Its checks: \(checks.joined(separator: ", "))."
        case .checkNotInCampaign(let id, let campaignId, let known):
            return "Check '\(id)' is not a check of any open run's scenario in campaign '\(campaignId)'.\(Suggestion.sentence(for: id, among: known)) Known checks: \(known.joined(separator: ", "))."
        case .noCheckLeft(let runIds):
            return "No check is left to run: the checks left out are all of \(Self.runs(runIds))'s checks."
        case .purchaseNeedsOneRun:
            return "An order and a transaction name one run's purchase: name them with one run, not a campaign."
        case .noOpenRun(let campaignId):
            return "Campaign '\(campaignId)' has no open run: start one per scenario. \(nothing)"
        case .runOrCampaign:
            return "Name one run or one campaign (each open run of the campaign), not both."
        case .orderAndTransactionApart:
            return "Name an order and its transaction together."
        case .transactionNotStoreSigned(let transactionId, let runId, let recorded):
            return "Transaction '\(transactionId)' is not a store-signed transaction recorded on run '\(runId)' (\(Self.recorded(recorded))). "
                + "On a hosted Sandbox the purchase checks examine the run's recorded store-signed transaction: record the purchase's "
                + "signed transaction on the run, then run the checks without naming a transaction. \(nothing)"
        case .secondCustomerNeeded(let checks):
            return "\(Self.theChecks(checks)) \(checks.joined(separator: ", ")) \(checks.count == 1 ? "signs" : "sign") in as a second customer: name a Sandbox customer other than the customer, or leave them out. \(nothing)"
        case .secondCustomerIsCustomer(let customerId):
            return "The second customer must differ from the customer '\(customerId)'. \(nothing)"
        case .noCredentials(let use):
            return "No credentials: give a server key (\(use)) or a token command."
        case .serverKeyInvalid(let reason):
            return "The server key is not usable (\(reason))."
        case .serverKeyNotTheVendors(let vendor, let shape):
            return "The server key is not a \(vendor) secret key (\(shape)). \(nothing)"
        case .tokenCommandNotRunnable(let status):
            return "Pre-flight: the token command was not found or cannot be run (exit status \(status)): it runs as 'CMD CUSTOMER_ID [TTL]' through /bin/sh. \(nothing)"
        case .tokenCommandFailed(let reason):
            return "Pre-flight: \(reason) Fix the token command (it must print {\"customerToken\", \"expiresAt\"}), then run again. \(nothing)"
        case .tokenExpiryInvalid(let expiresAt):
            return "The token command's expiresAt '\(expiresAt)' is not an RFC 3339 time."
        case .tokenCommandCannotRevoke:
            // The one exception to words without flags: a check that revokes fails with this as its reason, which is
            // recorded as evidence (and printed) before any command line could word it, so it says what QA typed.
            return "A token command cannot revoke a token: these checks need the vendor's secret server key (iap_sk_…)."
        case .tokenNotIssued(let baseURL, let customerId, let project, let error, _):
            return "Pre-flight: the Sandbox at '\(baseURL)' did not issue a customer token for '\(customerId)' with the server key for project '\(project)': \(error) \(Self.advice(error)) \(nothing)"
        case .tokenRefused(let baseURL, let fromTokenCommand, let customerId, let project, let error, _):
            return "Pre-flight: the Sandbox at '\(baseURL)' refused \(fromTokenCommand ? "the token command's token" : "a token minted with the server key") for customer '\(customerId)' under project '\(project)': \(error) \(Self.advice(error)) \(nothing)"
        case .emulatorOrderMissing(let orderId, let customerId, let reason):
            return "Pre-flight: order '\(orderId)' does not exist on the emulator for customer '\(customerId)' (\(reason)): name the order the emulator sold, or name none to let the checks buy their own. \(nothing)"
        case .emulatorOrderHasNoReceipt(let orderId, let transactionId, let known):
            return "Pre-flight: order '\(orderId)' on the emulator has no receipt for transaction '\(transactionId)' (\(known.isEmpty ? "it has no receipt" : "its transactions: " + known.joined(separator: ", "))). \(nothing)"
        case .campaignURLInvalid(let baseURL):
            return "The campaign's base URL '\(baseURL)' is not a URL."
        case .campaignTargetUnusable(let reason):
            return "The campaign's publishable key or base URL cannot be used: \(reason) \(nothing)"
        case .brokerRefused(let customerId, let reason):
            return "Pre-flight: the broker did not issue a customer token for app user '\(customerId)': \(reason) \(nothing)"
        case .vendorReadRefused(let vendor, let baseURL, let customerId, let reason):
            return "Pre-flight: \(vendor) at '\(baseURL)' refused a read with the broker's token for '\(customerId)': \(reason) Check the campaign's publishable key (it must be this app's) and the credentials. \(nothing)"
        case .transactionNotRecorded(let transactionId, let runId):
            return "Transaction '\(transactionId)' is not recorded with its JWS on run '\(runId)': record it first. \(nothing)"
        case .purchaseTargetNotLoopback(let baseURL, let host):
            return "'\(baseURL)' is not the local emulator (a loopback address, here '\(host)'). On the hosted Sandbox, buy in the app on a physical device. Nothing was sent."
        case .purchaseTargetUnreachable(let baseURL):
            return "Nothing answered at '\(baseURL)'."
        case .purchaseTargetNotEmulator(let baseURL, let header, _):
            return "'\(baseURL)' did not declare '\(header): emulator': only the local emulator sells. Nothing was bought."
        case .journalEmpty:
            return "The journal is empty: there is no head to timestamp."
        case .timestampAuthorityUnreachable(let url, let reason):
            // The transport's words end their sentence themselves.
            return "Cannot reach the timestamp authority '\(url)': \(reason)\(reason.hasSuffix(".") ? "" : ".") Nothing was stored."
        case .timestampAuthorityStatus(let url, let status):
            return "The timestamp authority '\(url)' answered HTTP \(status). Nothing was stored."
        case .timestampAnswerRefused(let url, let reason):
            return "The answer of the timestamp authority '\(url)' was refused: \(reason). Nothing was stored."
        case .exportedSignoffUnreadable(let folder, let file):
            return "Cannot read '\(folder)/\(file)': an exported sign-off folder holds statement.json, statement.sig and public.pem."
        case .notIntact(let action, let first, let count):
            return "The evidence database does not verify, so nothing was \(action): \(first)\(Self.more(count))."
        case .verdictNotReproduced(let reportId, let stored, let judged):
            return "Report \(reportId): stored \(stored), this growcert judges \(judged). Nothing was signed."
        case .reportFolderNotAFolder(let path):
            return "'\(path)' is not a folder: several formats or languages are written into a folder. Nothing was rendered."
        case .demoFolderUnwritable(let path, let reason):
            return "Cannot create '\(path)': \(reason)"
        case .demoDatabaseExists(let path):
            return "'\(path)' already exists; the demo starts from a fresh database. Remove it or choose another folder."
        case .noPlayLicenseKey(let campaignId):
            return "Campaign \(campaignId) has no Play license key, so the purchase's signature cannot be verified. Record the key Play Console shows under Monetize › Licensing on the campaign, then record the purchase again. Nothing was written."
        case .profileTakesNoPlayKey(let profile, let proofs):
            return "Profile '\(profile)' accepts no signed Google Play purchases (its store proofs: \(proofs.joined(separator: ", "))), so it takes no Play license key. Nothing was changed."
        case .receiptRefused(let file, let why):
            return "Receipt file '\(file)' \(why). Nothing was written."
        case .voidedListEmpty(let file):
            return "The voided-purchases file '\(file)' lists no purchases. Nothing was written."
        case .emulatorSettingInvalid(let setting, let expected):
            return "The emulator's \(setting) must be \(expected)."
        case .demoUnknownProfile(let profile, let known):
            return "The demo knows profiles \(known.joined(separator: " and ")), not '\(profile)'."
        case .demoDoesNotVerify(let problems):
            return "The demo database does not verify: \(problems.map(\.description).joined(separator: "; "))"
        }
    }

    /// What to check for a credential the Sandbox refused (the command line adds the flag or command that fixes it).
    package static func advice(_ error: GrowClientError) -> String {
        switch error {
        case .scopeMismatch: return "The campaign's project must be the App UUID the credentials belong to."
        case .unauthorized: return "Check the credentials."
        default: return "Check the campaign's project and the credentials."
        }
    }

    /// `run r1, run r2`.
    package static func runs(_ ids: [String]) -> String { ids.map { "run \($0)" }.joined(separator: ", ") }

    /// `none is recorded`, or `recorded: t1, t2`.
    package static func recorded(_ ids: [String]) -> String { ids.isEmpty ? "none is recorded" : "recorded: " + ids.joined(separator: ", ") }

    /// `The check` or `The checks`.
    package static func theChecks(_ ids: [String]) -> String { ids.count == 1 ? "The check" : "The checks" }

    /// ` (and 2 more problems)` after the first of `count` problems; empty for one.
    package static func more(_ count: Int) -> String { count > 1 ? " (and \(count - 1) more problem\(count > 2 ? "s" : ""))" : "" }
}
