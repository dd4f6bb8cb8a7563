import HTTPCore

/// The purchase an app makes on an emulator, in one place: a funnel run token from the emulator's
/// controls, the app's sign-in, the funnel's order, the store's signed transaction, the receipt.
///
/// `growcert sandbox purchase`, the checks' emulator purchase and the hosted end-to-end tests all
/// buy through it. The store leg is the emulator's own (`/_emulator` store purchase, an
/// emulator-signed transaction) unless the caller brings its own signed transaction (a test App
/// Store). An error of a stage comes wrapped in a `StageFailure` that names the stage; whether the
/// receipt was delivered is the caller's to judge (`Bought.receipt`).
package struct GrowEmulatorPurchase: Sendable {
    /// The product the emulator purchase buys.
    package static let productId = "gold_monthly"
    /// The tier it grants.
    package static let tier = "gold"
    /// The points it grants, as exact decimal text.
    package static let points = "10.5"

    /// One stage of the purchase; its description is the stage in words ("start the funnel"), for a
    /// reason that names it.
    package enum Stage: Sendable, Equatable, CustomStringConvertible {
        /// Creating the funnel's run token with the emulator's controls.
        case runToken
        /// The app signing in as `customerId`.
        case identify(customerId: String)
        /// Starting the funnel, which opens the order.
        case funnel
        /// The store's purchase of the order.
        case storePurchase(orderId: String)
        /// Submitting the order's receipt.
        case submitReceipt(orderId: String)

        /// The stage in words, to follow "Could not …".
        package var description: String {
            switch self {
            case .runToken: return "create a funnel run token on the emulator"
            case .identify(let customerId): return "identify as '\(customerId)' for the purchase"
            case .funnel: return "start the funnel"
            case .storePurchase(let orderId): return "simulate the store purchase of order '\(orderId)'"
            case .submitReceipt(let orderId): return "submit the receipt of order '\(orderId)'"
            }
        }
    }

    /// Why a purchase could not be made although every call succeeded.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The funnel has no purchase step, so no order.
        case noPurchaseStep
        /// The emulator's store purchase of the order returned no Apple transaction.
        case noAppleTransaction(orderId: String)
        /// The emulator purchase's points are not an exact decimal (a defect of growcert).
        case invalidPoints

        /// What went wrong, in a sentence.
        package var description: String {
            switch self {
            case .noPurchaseStep: return "The emulator's funnel has no purchase step, so there is no order to buy."
            case .noAppleTransaction(let orderId): return "The emulator's store purchase of order '\(orderId)' returned no Apple transaction."
            case .invalidPoints: return "Internal: the emulator purchase's points '\(GrowEmulatorPurchase.points)' are not a decimal."
            }
        }
    }

    /// A store transaction for an order: its id and its JWS.
    package struct StoreTransaction: Sendable, Equatable {
        /// The store's transaction id.
        package var transactionId: String
        /// The transaction's JWS, as the store signed it.
        package var signedTransaction: String

        /// A transaction from its parts.
        package init(transactionId: String, signedTransaction: String) {
            self.transactionId = transactionId
            self.signedTransaction = signedTransaction
        }
    }

    /// The store leg that signs an order's transaction, when it is not the emulator's own.
    package typealias Store = @Sendable (_ orderId: String) async throws -> StoreTransaction

    /// What the purchase bought, and how the Sandbox answered its receipt.
    package struct Bought: Sendable {
        /// The order the funnel opened.
        package var orderId: String
        /// The signed transaction whose receipt was submitted.
        package var transaction: StoreTransaction
        /// The Sandbox's answer to the receipt; its `status` says whether the order was delivered.
        package var receipt: GrowWireReceiptResult
    }

    /// A stage that threw: which one, and what it threw.
    package struct StageFailure: Error, CustomStringConvertible {
        /// The stage that threw.
        package let stage: Stage
        /// What it threw.
        package let underlying: any Error

        /// "Could not start the funnel: …".
        package var description: String { "Could not \(stage): \(underlying)" }
    }

    private let control: GrowEmulatorControl
    private let app: GrowClient

    /// A purchase through the emulator's controls (`control`) made by the app (`app`).
    package init(control: GrowEmulatorControl, app: GrowClient) {
        self.control = control
        self.app = app
    }

    /// The funnel step the purchase buys: one Apple subscription granting `points`.
    package static func step() throws -> GrowWireEmulatorStep {
        guard let amount = ExactDecimal(points) else { throw Failure.invalidPoints }
        return GrowWireEmulatorStep(store: GrowWireVocabulary.Store.apple, productId: productId, tier: tier, points: amount)
    }

    /// Buys the emulator product as `customerId` (signed in with `customerToken`) and submits its receipt.
    ///
    /// - Parameter store: signs the order's transaction; nil for the emulator's own store purchase.
    /// - Throws: a `StageFailure` wrapping what a stage threw, or a `Failure`.
    package func buy(customerId: String, customerToken: String, store: Store? = nil) async throws -> Bought {
        let step = try Self.step()
        let runToken = try await run(.runToken) {
            try await control.runToken(GrowWireEmulatorRunTokenRequest(customerId: customerId, steps: [step]))
        }
        _ = try await run(.identify(customerId: customerId)) { try await app.identify(customerToken: customerToken) }
        let funnel = try await run(.funnel) { try await app.funnel(runToken: runToken) }
        guard let orderId = funnel.steps.first?.orderId else { throw Failure.noPurchaseStep }
        let signed = try await run(.storePurchase(orderId: orderId)) { () async throws -> StoreTransaction? in
            if let store { return try await store(orderId) }
            let bought = try await control.purchase(orderId: orderId)
            guard let transactionId = bought.transactionId, let jws = bought.signedTransaction else { return nil }
            return StoreTransaction(transactionId: transactionId, signedTransaction: jws)
        }
        guard let transaction = signed else { throw Failure.noAppleTransaction(orderId: orderId) }
        let receipt = try await run(.submitReceipt(orderId: orderId)) {
            try await app.submitReceipt(
                orderId: orderId, submission: .apple(transactionId: transaction.transactionId, signedTransaction: transaction.signedTransaction))
        }
        return Bought(orderId: orderId, transaction: transaction, receipt: receipt)
    }

    /// `body` run as `stage`: what it throws comes wrapped in a `StageFailure`.
    private func run<T>(_ stage: Stage, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw StageFailure(stage: stage, underlying: error) }
    }
}
