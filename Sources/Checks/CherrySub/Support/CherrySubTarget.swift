import CherryClient
import Foundation

/// CherrySub's target (`CherrySubSuite.Target`): the client configuration (base URL, publishable key), the token
/// broker, the secret key where the checks drive an emulator, the app's bundle id and the transaction QA recorded.
package struct CherrySubTarget: SuiteTarget {
    /// Signs an Xcode-environment (StoreKit Testing) transaction payload with a throwaway local key: compact JWS.
    package typealias LocalSigner = @Sendable (_ payloadJSON: Data) throws -> String

    /// Base URL and publishable key.
    package var configuration: CherryClientConfiguration
    /// The app's backend that issues and revokes customer tokens.
    package var broker: any TokenBroker
    /// The broker's `iap_sk_` key; needed for the emulator's controls. Never stored.
    package var secretKey: CherrySecretKey?
    /// The app's bundle id (the campaign's `--app-id`).
    package var bundleId: String
    /// The store transaction QA made on the device (the run's `transaction` evidence); nil when none.
    package var recordedTransaction: RecordedStoreTransaction?
    /// Signs `purchase.local-refused`'s Xcode transaction; nil: that check cannot run.
    package var localSigner: LocalSigner?
    /// On an emulator: examine `recordedTransaction` as the app users given (as on hosted staging) instead of buying
    /// the checks' own purchases; the emulator still plays the store's notifications. Elsewhere always so.
    package var usesRecordedTransactionOnEmulator = false

    /// A target from its parts.
    package init(configuration: CherryClientConfiguration, broker: any TokenBroker, secretKey: CherrySecretKey?, bundleId: String,
                recordedTransaction: RecordedStoreTransaction? = nil, localSigner: LocalSigner? = nil) {
        self.configuration = configuration
        self.broker = broker
        self.secretKey = secretKey
        self.bundleId = bundleId
        self.recordedTransaction = recordedTransaction
        self.localSigner = localSigner
    }

    /// The backend's base URL, from the client configuration.
    package var baseURL: URL { configuration.baseURL }
}

/// A StoreKit 2 transaction as recorded on a run (`evidence add transaction --jws-file`).
package struct RecordedStoreTransaction: Sendable, Equatable, CustomStringConvertible {
    /// `Transaction.id`.
    package var transactionId: String
    /// The store-signed JWS.
    package var signedTransaction: String

    /// A recorded transaction.
    package init(transactionId: String, signedTransaction: String) {
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
    }

    /// The transaction id only: the JWS stays out of logs.
    package var description: String { "RecordedStoreTransaction(\(transactionId))" }
}
