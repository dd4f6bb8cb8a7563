import CherryClient
import Foundation
import HTTPCore
import Synchronization

/// One CherrySub check's working environment (its `CheckHarness`): transports, clients, fixtures.
///
/// Requests go through `recorder` (the evidence transcript, redacted), then `faults` (faults the check provokes,
/// such as a lost response), then the context's transport. On an emulator the checks make their own app users and
/// purchases; elsewhere they use the app users given and the transaction QA recorded.
package final class CherrySubHarness: CheckHarness {
    let context: CheckContext
    let target: CherrySubTarget
    let recorder: RecordingTransport
    let faults: FaultInjectingTransport
    private let serial: Int
    // Guards the secrets this check handled (for a final scrub) and the acceptance it observed.
    private let state = Mutex<(secrets: [String], receipt: ObservedReceipt?, users: Int)>(([], nil, 0))

    init(context: CheckContext, target: CherrySubTarget, serial: Int) {
        self.context = context
        self.target = target
        self.serial = serial
        faults = FaultInjectingTransport(wrapping: context.transport, sleep: context.clock.sleep)
        recorder = RecordingTransport(wrapping: faults, dialect: CherryWire.dialect, now: context.clock.instant)
    }

    var isEmulator: Bool { context.isEmulatorTarget }
    /// Whether the checks examine the recorded transaction as the app users given (always off the emulator).
    var usesRecorded: Bool { !isEmulator || target.usesRecordedTransactionOnEmulator }

    /// Every exchange the check sent through the harness's transports, in send order.
    package var transcript: [TranscriptEntry] { recorder.entries }
    /// Every secret (token, key) the check handled, for scrubbing its result.
    package var secrets: [String] { state.withLock { $0.secrets } }
    /// The backend's acceptance the check observed; nil when it observed none.
    package var receipt: ObservedReceipt? { state.withLock { $0.receipt } }

    func remember(secret: String) { state.withLock { $0.secrets.append(secret) } }
    func observe(receipt: ObservedReceipt) { state.withLock { $0.receipt = receipt } }

    // MARK: Clients

    /// A broker that counts its calls, around the target's.
    func countingBroker() -> CountingBroker {
        CountingBroker(target.broker) { [weak self] token in self?.remember(secret: token) }
    }

    /// The backend's clock as the client core should read it, and whether the broker honours `ttlSeconds`.
    ///
    /// Two fresh tokens (15 and 60 minutes) through the `ServerKeyBroker`: their `expiresAt` must lie 45 minutes
    /// apart (else the broker ignores `ttlSeconds`), and `expiresAt` minus the ttl is the backend's "now". A backend
    /// whose clock is not this machine's (an emulator with its own clock) then does not make every token look
    /// expired. Another broker's tokens say nothing of its ttl: the context's clock, ttl unknown (nil).
    func backendClock() async throws -> (now: @Sendable () -> Date, ttlHonoured: Bool?) {
        let clock = context.clock
        guard let broker = target.broker as? ServerKeyBroker else { return (clock.now, nil) }
        let long = ServerKeyBroker(server: broker.server, ttlSeconds: broker.ttlSeconds + 2700)
        let before = clock.now()
        let short = try await step("issue a token to read the backend's clock") { try await broker.issueToken(appUserId: context.customerId) }
        let longer = try await step("issue a longer token") { try await long.issueToken(appUserId: context.customerId) }
        remember(secret: short.customerToken)
        remember(secret: longer.customerToken)
        let honoured = abs(longer.expiresAt.timeIntervalSince(short.expiresAt) - 2700) < 60
        let offset = short.expiresAt.addingTimeInterval(-TimeInterval(broker.ttlSeconds)).timeIntervalSince(before)
        // Only a broker that honours the ttl tells the backend's time; within a few seconds the clocks agree anyway.
        guard honoured, abs(offset) > 5 else { return (clock.now, honoured) }
        return ({ clock.now().addingTimeInterval(offset) }, honoured)
    }

    /// A client core on the check's transport; `now` defaults to the context's clock.
    func client(broker: CountingBroker? = nil, now: (@Sendable () -> Date)? = nil) -> CherrySubClient {
        CherrySubClient(configuration: target.configuration, transport: recorder, broker: broker ?? countingBroker(),
                        now: now ?? context.clock.now)
    }

    /// The emulator's controls; only on an emulator target.
    func emulator() throws -> CherryEmulatorControl {
        guard isEmulator else { throw CheckFailure("Internal: emulator controls were requested on a target that is not an emulator.") }
        guard let key = target.secretKey else {
            throw CheckFailure("This check needs GROWCERT_SERVER_KEY (iap_sk_…) to drive the emulator; a token command alone is not enough.", need: .serverKey)
        }
        return CherryEmulatorControl(configuration: target.configuration, secretKey: key, transport: recorder)
    }

    // MARK: App users and purchases

    /// A new app user: on the emulator made known through its controls; elsewhere a fresh id the backend never saw.
    func newAppUser(_ role: String) async throws -> String {
        let n = state.withLock { $0.users += 1; return $0.users }
        let id = "\(context.customerId)-\(role)-\(serial)-\(n)-\(UUID().uuidString.prefix(8).lowercased())"
        if isEmulator { try await step("make app user '\(id)' known to the emulator") { try await emulator().addAppUser(id) } }
        return id
    }

    /// The app user QA bought with (`--customer`), or on the emulator a new one.
    func buyer() async throws -> String {
        usesRecorded ? context.customerId : try await newAppUser("buyer")
    }

    /// A second app user (`--second-customer`), or on the emulator a new one.
    func secondUser() async throws -> String {
        if !usesRecorded { return try await newAppUser("second") }
        guard let second = context.secondCustomerId else {
            throw CheckFailure("This check needs a second app user.", need: .secondCustomer)
        }
        return second
    }

    /// A store-signed transaction to submit: on the emulator a new purchase; elsewhere the run's recorded one.
    func storeTransaction(productId: String = CherrySubSuite.productId, type: CherryProductType = .autoRenewable)
        async throws -> RecordedStoreTransaction {
        // On the emulator a scenario with no recorded transaction (account switch) buys its own.
        if !usesRecorded || (isEmulator && target.recordedTransaction == nil) {
            let purchase = try await step("buy '\(productId)' through the emulator's store") {
                try await emulator().purchase(productId: productId, bundleId: target.bundleId, type: type)
            }
            return RecordedStoreTransaction(transactionId: purchase.transactionId, signedTransaction: purchase.signedTransaction)
        }
        guard let recorded = target.recordedTransaction else {
            throw CheckFailure("No store transaction is recorded on this run: make the purchase on the device, record its signed "
                + "transaction on the run, then run the check again.", waiting: true, need: .storeTransaction)
        }
        return recorded
    }

    /// A transaction that the backend accepted for `appUserId` (submitted through the client core), and the answer.
    func acceptedTransaction(for appUserId: String, client: CherrySubClient, type: CherryProductType = .autoRenewable,
                             productId: String = CherrySubSuite.productId) async throws -> (RecordedStoreTransaction, CherrySubmission) {
        let transaction = try await storeTransaction(productId: productId, type: type)
        let answer = try await step("submit transaction \(transaction.transactionId) as '\(appUserId)'") {
            try await client.submitAppleTransaction(appUserId: appUserId, signedTransaction: transaction.signedTransaction, source: .purchase)
        }
        try require(answer.result.status == CherrySubSuite.acceptedStatus,
                    "Transaction \(transaction.transactionId) was answered with status '\(answer.result.status)', not '\(CherrySubSuite.acceptedStatus)'.")
        if transaction == target.recordedTransaction && usesRecorded && answer.result.ledgerEventId != nil {
            observeAcceptance(answer)
        }
        return (transaction, answer)
    }

    /// Keeps the backend's acceptance of the run's transaction (the last 2xx submission's body, as received) for a
    /// `receipt` item keyed by `transactionId`, which the verdict pairs with the run's `transaction`.
    func observeAcceptance(_ answer: CherrySubmission) {
        let result = answer.result
        let raw = transcript.last {
            $0.method == HTTPMethod.post.rawValue && $0.path == CherryWire.Path.appleTransactions && ($0.status ?? 0) / 100 == 2
        }?.responseBody
        observe(receipt: ObservedReceipt(orderId: nil, receiptId: result.ledgerEventId, status: result.status,
                                         rawOrderJSON: raw ?? ((try? JSONEncoderForEvidence.text(result)) ?? "{}"),
                                         transactionId: result.transactionId))
    }

    /// The access level that `originalTransactionId` gives `appUserId`, and the subscriber; fails when there is none.
    func level(of appUserId: String, for originalTransactionId: String, client: CherrySubClient) async throws
        -> (name: String, level: CherryAccessLevel) {
        let lookup = try await step("read subscriber '\(appUserId)'") { try await client.subscriber(appUserId: appUserId) }
        guard let subscriber = lookup.subscriber else {
            throw CheckFailure("Subscriber '\(appUserId)' was not found (404) although transaction \(originalTransactionId) was accepted for it.")
        }
        guard let (name, level) = subscriber.accessLevels.first(where: { $0.value.originalTransactionId == originalTransactionId }) else {
            throw CheckFailure("Subscriber '\(appUserId)' has no access level for original transaction \(originalTransactionId) "
                + "(levels: \(subscriber.accessLevels.keys.sorted().joined(separator: ", ")).")
        }
        return (name, level)
    }

    /// Every ledger event of `appUserId`, all pages; an unknown subscriber has none.
    func ledger(of appUserId: String, client: CherrySubClient) async throws -> [CherryLedgerEvent] {
        var events: [CherryLedgerEvent] = []
        var after: String?
        for _ in 0..<100 {
            let page: CherryLedgerPage
            do {
                page = try await client.ledger(appUserId: appUserId, after: after)
            } catch let error as CherryClientError where error.code == .subscriberNotFound {
                return events
            } catch {
                throw CheckFailure("Could not read the ledger of '\(appUserId)': \(error)")
            }
            events += page.events
            guard let next = page.nextAfter else { return events }
            after = next
        }
        throw CheckFailure("The ledger of '\(appUserId)' did not end after 100 pages.")
    }

    /// The events of `appUserId`'s ledger for `originalTransactionId`.
    func events(of appUserId: String, for originalTransactionId: String, client: CherrySubClient) async throws -> [CherryLedgerEvent] {
        try await ledger(of: appUserId, client: client).filter { $0.originalTransactionId == originalTransactionId }
    }
}
