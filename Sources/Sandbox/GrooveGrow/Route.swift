import GrowClient

/// One endpoint of the GrooveGrow contract: method, path template (from `Wire.Path`) and credential.
typealias Route = EmulatorRoute<GrooveGrowEndpoint, GrooveGrowCredential>

/// What a GrooveGrow endpoint does.
enum GrooveGrowEndpoint: Sendable {
    case session, holdings, funnels, receipts, order, ledger, relayRecover
    case customerTokens, consoleCustomer
    case emulatorCustomers, emulatorRunTokens, emulatorPurchases, emulatorRefunds, emulatorFaults, emulatorReset
}

/// Which credential a GrooveGrow endpoint takes.
enum GrooveGrowCredential: Sendable {
    case customer, server, relay
}

extension EmulatorRoute where Endpoint == GrooveGrowEndpoint, Credential == GrooveGrowCredential {
    private static var marker: String { PathTemplate.marker }

    /// Every GrooveGrow endpoint.
    static var all: [Route] {
        [
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
}
