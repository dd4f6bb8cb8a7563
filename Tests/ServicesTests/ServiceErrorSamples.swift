import Evidence
import GrowClient
import Services

/// One value of every `ServiceError` case, for the tests of its words and of the command line's mapping.
enum ServiceErrorSamples {
    static let problem = VerificationProblem(seq: 3, message: "the hash of entry 3 does not match")

    static let all: [ServiceError] = [
        .unknownExceptedCheck(id: "x", known: ["a"]), .checkNotInScenario(id: "x", scenario: "s", checks: ["a"]),
        .checkNotInCampaign(id: "x", campaignId: "c1", known: ["a"]), .noCheckLeft(runIds: ["r1"]), .purchaseNeedsOneRun,
        .noOpenRun(campaignId: "c1"), .runOrCampaign, .orderAndTransactionApart,
        .transactionNotStoreSigned(transactionId: "t", runId: "r1", recorded: []), .secondCustomerNeeded(checks: ["a"]),
        .secondCustomerIsCustomer(customerId: "c"), .noCredentials(serverKeyUse: "growcert mints short-lived customer tokens with it"), .noCredentials(serverKeyUse: "the broker's iap_sk_ key"),
        .serverKeyInvalid(reason: "short"), .serverKeyNotTheVendors(vendor: "CherrySub", shape: "iap_sk_…"), .tokenCommandNotRunnable(status: 127), .tokenCommandFailed(reason: "It failed."),
        .tokenExpiryInvalid(expiresAt: "soon"), .tokenCommandCannotRevoke,
        .tokenNotIssued(baseURL: "http://h", customerId: "c", project: "p", error: .unauthorized(code: .tokenInvalid), campaignId: "c1"),
        .tokenRefused(baseURL: "http://h", fromTokenCommand: true, customerId: "c", project: "p", error: .unauthorized(code: .tokenInvalid), campaignId: "c1"),
        .emulatorOrderMissing(orderId: "o", customerId: "c", reason: "404"), .emulatorOrderHasNoReceipt(orderId: "o", transactionId: "t", known: []),
        .campaignURLInvalid(baseURL: "::"), .campaignTargetUnusable(reason: "bad."), .brokerRefused(customerId: "c", reason: "no."),
        .vendorReadRefused(vendor: "CherrySub", baseURL: "http://h", customerId: "c", reason: "no."), .transactionNotRecorded(transactionId: "t", runId: "r1"),
        .purchaseTargetNotLoopback(baseURL: "https://h", host: "h"), .purchaseTargetUnreachable(baseURL: "http://127.0.0.1:1"),
        .purchaseTargetNotEmulator(baseURL: "http://127.0.0.1:1", kindHeader: "GrooveGrow-Sandbox-Kind", profile: nil), .journalEmpty, .timestampAuthorityUnreachable(url: "http://t", reason: "down"),
        .timestampAuthorityStatus(url: "http://t", status: 500), .timestampAnswerRefused(url: "http://t", reason: "bad"),
        .exportedSignoffUnreadable(folder: "d", file: "statement.sig"), .notIntact(action: "signed", first: problem, count: 3),
        .reportFolderNotAFolder(path: "f"), .demoFolderUnwritable(path: "d", reason: "denied"), .demoDatabaseExists(path: "d/growcert.sqlite"),
        .demoUnknownProfile("acme", known: ["groovegrow", "cherrysub"]), .emulatorSettingInvalid(setting: "project", expected: "a UUID"),
        .noPlayLicenseKey(campaignId: "c1"), .voidedListEmpty(file: "v.json"), .receiptRefused(file: "r.json", why: "is not JSON"), .profileTakesNoPlayKey(profile: "cherrysub", proofs: ["manual"]), .demoDoesNotVerify(problems: [problem]),
    ]
}
