import CherryClient

/// One endpoint of the CherrySub contract: method, path template (from `CherryWire.Path`) and credential.
typealias CherrySubRoute = EmulatorRoute<CherrySubEndpoint, CherrySubCredential>

/// What a CherrySub endpoint does.
enum CherrySubEndpoint: Sendable {
    case issueToken, revokeToken, serverSubscriber
    case currentProductSet, submitTransaction, subscriber, ledger
    case emulatorAppUsers, emulatorProductSets, emulatorPurchases, emulatorNotifications
    case emulatorClock, emulatorFaults, emulatorReset
}

/// Which credential a CherrySub endpoint takes.
enum CherrySubCredential: Sendable {
    /// `Authorization: Bearer iap_sk_…`.
    case secretKey
    /// `Authorization: Bearer <customerToken>`.
    case customer
}

extension EmulatorRoute where Endpoint == CherrySubEndpoint, Credential == CherrySubCredential {
    private static var marker: String { PathTemplate.marker }

    /// Every CherrySub endpoint, `/_emulator` controls included.
    static var all: [CherrySubRoute] {
        [
            CherrySubRoute("POST", CherryWire.Path.customerTokens, .issueToken, .secretKey),
            CherrySubRoute("POST", CherryWire.Path.revokeToken(marker), .revokeToken, .secretKey),
            CherrySubRoute("GET", CherryWire.Path.serverSubscriber(marker), .serverSubscriber, .secretKey),
            CherrySubRoute("GET", CherryWire.Path.currentProductSet, .currentProductSet, .customer),
            CherrySubRoute("POST", CherryWire.Path.appleTransactions, .submitTransaction, .customer),
            CherrySubRoute("GET", CherryWire.Path.subscriber(marker), .subscriber, .customer),
            CherrySubRoute("GET", CherryWire.Path.ledger(marker), .ledger, .customer),
            CherrySubRoute("POST", CherryWire.Path.emulatorAppUsers, .emulatorAppUsers, .secretKey),
            CherrySubRoute("POST", CherryWire.Path.emulatorProductSets, .emulatorProductSets, .secretKey),
            CherrySubRoute("POST", CherryWire.Path.emulatorPurchases, .emulatorPurchases, .secretKey),
            CherrySubRoute("POST", CherryWire.Path.emulatorNotifications, .emulatorNotifications, .secretKey),
            CherrySubRoute("POST", CherryWire.Path.emulatorClock, .emulatorClock, .secretKey),
            CherrySubRoute("POST", CherryWire.Path.emulatorFaults, .emulatorFaults, .secretKey),
            CherrySubRoute("POST", CherryWire.Path.emulatorReset, .emulatorReset, .secretKey),
        ]
    }
}
