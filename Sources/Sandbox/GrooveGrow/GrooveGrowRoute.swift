import GrowClient

/// One endpoint of the GrooveGrow contract: method, path template (from `GrowWire.Path`) and credential.
typealias GrooveGrowRoute = EmulatorRoute<GrooveGrowEndpoint, GrooveGrowCredential>

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
    static var all: [GrooveGrowRoute] {
        [
            GrooveGrowRoute("GET", GrowWire.Path.session, .session, .customer),
            GrooveGrowRoute("GET", GrowWire.Path.holdings, .holdings, .customer),
            GrooveGrowRoute("POST", GrowWire.Path.funnels, .funnels, .customer),
            GrooveGrowRoute("POST", GrowWire.Path.receipts(marker), .receipts, .customer),
            GrooveGrowRoute("GET", GrowWire.Path.order(marker), .order, .customer),
            GrooveGrowRoute("GET", GrowWire.Path.ledger, .ledger, .customer),
            GrooveGrowRoute("POST", GrowWire.Path.relayRecover, .relayRecover, .relay),
            GrooveGrowRoute("POST", GrowWire.Path.customerTokens, .customerTokens, .server),
            GrooveGrowRoute("GET", GrowWire.Path.consoleCustomer(marker), .consoleCustomer, .server),
            GrooveGrowRoute("POST", GrowWire.Path.emulatorCustomers, .emulatorCustomers, .server),
            GrooveGrowRoute("POST", GrowWire.Path.emulatorRunTokens, .emulatorRunTokens, .server),
            GrooveGrowRoute("POST", GrowWire.Path.emulatorPurchases, .emulatorPurchases, .server),
            GrooveGrowRoute("POST", GrowWire.Path.emulatorRefunds, .emulatorRefunds, .server),
            GrooveGrowRoute("POST", GrowWire.Path.emulatorFaults, .emulatorFaults, .server),
            GrooveGrowRoute("POST", GrowWire.Path.emulatorReset, .emulatorReset, .server),
        ]
    }
}
