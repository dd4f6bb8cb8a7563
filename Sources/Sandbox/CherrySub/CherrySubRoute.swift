import CherryClient

/// One endpoint of the CherrySub contract: method, path template (from `CherryWire.Path`) and credential.
struct CherrySubRoute: EmulatorRoute {
    enum Endpoint {
        case issueToken, revokeToken, serverSubscriber
        case currentProductSet, submitTransaction, subscriber, ledger
        case emulatorAppUsers, emulatorProductSets, emulatorPurchases, emulatorNotifications
        case emulatorClock, emulatorFaults, emulatorReset
    }

    enum Credential {
        /// `Authorization: Bearer iap_sk_…`.
        case secretKey
        /// `Authorization: Bearer <customerToken>`.
        case customer
    }

    let method: String
    let template: PathTemplate
    let endpoint: Endpoint
    let credential: Credential

    private static let marker = PathTemplate.marker

    private init(_ method: String, _ path: String, _ endpoint: Endpoint, _ credential: Credential) {
        self.method = method
        self.template = PathTemplate(path)
        self.endpoint = endpoint
        self.credential = credential
    }

    static let all: [CherrySubRoute] = [
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
