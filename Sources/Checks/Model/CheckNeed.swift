/// Something a check needs from the person running it before it can judge, stated as data.
///
/// A check says what it lacks (`CheckFailure.need`); whoever shows the result words how to give it: the CLI
/// names its flag or its command (`growcert/CLI/CheckNeed+CLI.swift`). So no flag and no command line is
/// stored with the evidence, and the stored reason stays true whichever front end ran the check.
package enum CheckNeed: String, Sendable, Hashable, CaseIterable {
    /// The vendor's server key (read from the environment only).
    case serverKey = "server-key"
    /// A way to obtain customer tokens: the server key or a token command.
    case tokenSource = "token-source"
    /// A second customer (app user), other than the first.
    case secondCustomer = "second-customer"
    /// The purchase made on the device: its order id and transaction id.
    case devicePurchase = "device-purchase"
    /// The store-signed transaction, recorded on the run.
    case storeTransaction = "store-transaction"
    /// The customer (app user) the purchase was made as.
    case purchaseOwner = "purchase-owner"
}
