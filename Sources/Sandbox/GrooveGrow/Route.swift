import GrowClient

/// One endpoint of the GrooveGrow contract: method, path template (from `Wire.Path`) and credential.
struct Route: EmulatorRoute {
    enum Endpoint {
        case session, holdings, funnels, receipts, order, ledger, relayRecover
        case customerTokens, consoleCustomer
        case emulatorCustomers, emulatorRunTokens, emulatorPurchases, emulatorRefunds, emulatorFaults, emulatorReset
    }

    enum Credential {
        case customer, server, relay
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

    static let all: [Route] = [
        Route("GET", Wire.Path.session, .session, .customer),
        Route("GET", Wire.Path.holdings, .holdings, .customer),
        Route("POST", Wire.Path.funnels, .funnels, .customer),
        Route("POST", Wire.Path.receipts(marker), .receipts, .customer),
        Route("GET", Wire.Path.order(marker), .order, .customer),
        Route("GET", Wire.Path.ledger, .ledger, .customer),
        Route("POST", Wire.Path.relayRecover, .relayRecover, .relay),
        Route("POST", Wire.Path.customerTokens, .customerTokens, .server),
        Route("GET", Wire.Path.consoleCustomer(marker), .consoleCustomer, .server),
        Route("POST", Wire.Path.emulatorCustomers, .emulatorCustomers, .server),
        Route("POST", Wire.Path.emulatorRunTokens, .emulatorRunTokens, .server),
        Route("POST", Wire.Path.emulatorPurchases, .emulatorPurchases, .server),
        Route("POST", Wire.Path.emulatorRefunds, .emulatorRefunds, .server),
        Route("POST", Wire.Path.emulatorFaults, .emulatorFaults, .server),
        Route("POST", Wire.Path.emulatorReset, .emulatorReset, .server),
    ]
}
