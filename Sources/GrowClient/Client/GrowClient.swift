import Foundation
import HTTPCore

/// The customer-side client core: what the app's SDK does, speaking the Sandbox contract.
///
/// The customer token lives only in this actor's memory, so a new instance
/// (an app restart) has no session and refuses customer calls with
/// `notAuthenticated` without touching the network. A `401` or `403` on a
/// customer call forgets the token, session and snapshot. Every `identify`
/// and `reset` starts a new session generation; a response that arrives for
/// an older generation is dropped (`sessionChanged`) and never replaces the
/// current customer's state.
///
/// POSTs carry an `Idempotency-Key`. Use the `prepare…` methods and
/// `send(_:)` to keep a request, and `retry(_:)` to resend it unchanged after
/// a retryable failure. Nothing is retried automatically.
package actor GrowClient {
    /// Target and scope of every request.
    package nonisolated let configuration: GrowClientConfiguration
    private let executor: GrowRequestExecutor

    private var customerToken: String?
    private var generation: UInt64 = 0

    /// The session from the last successful `identify` of the current generation.
    package private(set) var currentSession: GrowWireSession?
    /// The holdings from the last successful `readHoldings` of the current generation.
    package private(set) var snapshot: GrowWireHoldings?

    /// Whether a customer token is held in memory.
    package var hasCustomerToken: Bool { customerToken != nil }

    /// Increases with every `identify` and `reset`.
    package var sessionGeneration: UInt64 { generation }

    /// Creates a client with no session.
    ///
    /// `makeIdempotencyKey` generates keys for POSTs the caller gives none for (default: a random UUID).
    package init(configuration: GrowClientConfiguration,
                transport: any HTTPTransport = CurlTransport(),
                makeIdempotencyKey: @escaping @Sendable () -> String = IdempotencyKey.random) {
        self.configuration = configuration
        self.executor = GrowRequestExecutor(configuration: configuration, transport: transport, makeIdempotencyKey: makeIdempotencyKey)
    }


    // MARK: Session

    /// Starts a new session with `customerToken` and asks the server who it belongs to (`GET /v1/session`).
    ///
    /// The previous customer's token, session and snapshot are forgotten first.
    /// On `401`/`403` the new token is forgotten as well.
    @discardableResult
    package func identify(customerToken token: String) async throws -> GrowWireSession {
        guard !token.isEmpty, GrowClientConfiguration.isHeaderSafe(token) else {
            throw GrowClientError.invalidArgument("The customer token must be a non-empty single line of printable ASCII.")
        }
        startGeneration()
        customerToken = token
        let session: GrowWireSession = try await customerCall(method: .get, path: GrowWire.Path.session)
        currentSession = session
        return session
    }

    /// Forgets the customer (sign-out): token, session and snapshot. Responses still in flight are dropped.
    package func reset() {
        startGeneration()
    }

    // MARK: Customer calls

    /// Reads the customer's holdings (`GET /v1/holdings`) and keeps them as `snapshot`.
    @discardableResult
    package func readHoldings() async throws -> GrowWireHoldings {
        let holdings: GrowWireHoldings = try await customerCall(method: .get, path: GrowWire.Path.holdings)
        snapshot = holdings
        return holdings
    }

    /// The status of one order (`GET /v1/orders/{orderId}`).
    package func order(id orderId: String) async throws -> GrowWireOrder {
        try await customerCall(method: .get, path: GrowWire.Path.order(orderId))
    }

    /// One ledger page (`GET /v1/ledger`). `limit` must be 1–500 when given.
    package func ledgerPage(orderId: String? = nil, after: String? = nil, limit: Int? = nil) async throws -> GrowWireLedgerPage {
        var query: [(String, String)] = []
        if let orderId { query.append(("orderId", orderId)) }
        if let after { query.append(("after", after)) }
        if let limit {
            guard (1...GrowWire.maxLedgerLimit).contains(limit) else {
                throw GrowClientError.invalidArgument("The ledger limit must be between 1 and \(GrowWire.maxLedgerLimit); got \(limit).")
            }
            query.append(("limit", String(limit)))
        }
        return try await customerCall(method: .get, path: GrowWire.Path.ledger, query: query)
    }

    /// Every ledger entry, following `nextAfter` from page to page.
    ///
    /// A `nextAfter` that repeats is a contract violation (`invalidResponse`) rather than an endless loop.
    package func ledger(orderId: String? = nil, after: String? = nil, limit: Int? = nil) async throws -> [GrowWireLedgerEntry] {
        var entries: [GrowWireLedgerEntry] = []
        var cursor = after
        var seenCursors: Set<String> = []
        while true {
            let page = try await ledgerPage(orderId: orderId, after: cursor, limit: limit)
            entries += page.entries
            guard let next = page.nextAfter else { return entries }
            guard seenCursors.insert(next).inserted, next != cursor else {
                throw GrowClientError.invalidResponse("the ledger returned nextAfter '\(next)' twice; pagination would never end.")
            }
            cursor = next
        }
    }

    /// Starts a funnel from a run token (`POST /v1/funnels`).
    package func funnel(runToken: String, idempotencyKey: String? = nil) async throws -> GrowWireFunnel {
        try await send(prepareFunnel(runToken: runToken, idempotencyKey: idempotencyKey))
    }

    /// Prepares `POST /v1/funnels` for `send(_:)`/`retry(_:)`.
    package func prepareFunnel(runToken: String, idempotencyKey: String? = nil) throws -> GrowPendingRequest<GrowWireFunnel> {
        try executor.prepare(path: GrowWire.Path.funnels, body: GrowWireFunnelRequest(runToken: runToken),
                             idempotencyKey: idempotencyKey, authentication: .customer)
    }

    /// Submits a store receipt for an order (`POST /v1/orders/{orderId}/receipts`).
    package func submitReceipt(orderId: String, submission: GrowWireReceiptSubmission, idempotencyKey: String? = nil) async throws -> GrowWireReceiptResult {
        try await send(prepareSubmitReceipt(orderId: orderId, submission: submission, idempotencyKey: idempotencyKey))
    }

    /// Prepares `POST /v1/orders/{orderId}/receipts` for `send(_:)`/`retry(_:)`.
    package func prepareSubmitReceipt(orderId: String, submission: GrowWireReceiptSubmission, idempotencyKey: String? = nil) throws -> GrowPendingRequest<GrowWireReceiptResult> {
        try executor.prepare(path: GrowWire.Path.receipts(orderId), body: submission,
                             idempotencyKey: idempotencyKey, authentication: .customer)
    }

    /// Asks the relay to recover native store orders (`POST /v1/relay/native-orders/recover`),
    /// sending the customer token and the host backend's server key together.
    package func recoverNativeOrders(using relay: GrowRelayCredentials, transactions: [GrowWireRecoverTransaction],
                                    synchronizeStore: Bool = false, idempotencyKey: String? = nil) async throws -> GrowWireRecoverResult {
        try await send(prepareRecoverNativeOrders(authentication: .customerAndServerKey(relay), transactions: transactions,
                                                  synchronizeStore: synchronizeStore, idempotencyKey: idempotencyKey))
    }

    /// Prepares the relay recover request. `authentication` other than `.customerAndServerKey`
    /// deliberately leaves one credential out (for checks that the Sandbox refuses it).
    package func prepareRecoverNativeOrders(authentication: GrowRelayAuthentication, transactions: [GrowWireRecoverTransaction],
                                           synchronizeStore: Bool = false, idempotencyKey: String? = nil) throws -> GrowPendingRequest<GrowWireRecoverResult> {
        try executor.prepare(path: GrowWire.Path.relayRecover,
                             body: GrowWireRecoverRequest(synchronizeStore: synchronizeStore, transactions: transactions),
                             idempotencyKey: idempotencyKey, authentication: .relay(authentication))
    }

    /// Sends a prepared customer or relay request with the current customer's token.
    package func send<Response>(_ pending: GrowPendingRequest<Response>) async throws -> Response {
        let relay: GrowRelayAuthentication?
        switch pending.authentication {
        case .customer: relay = nil
        case .relay(let authentication): relay = authentication
        case .server:
            throw GrowClientError.invalidArgument("\(pending) was prepared by a GrowServerClient or GrowEmulatorControl; send it there.")
        }
        return try await customerCall(method: pending.method, path: pending.path, body: pending.body,
                                      idempotencyKey: pending.idempotencyKey, relay: relay)
    }

    /// Resends `pending` with the same idempotency key and the same body bytes.
    package func retry<Response>(_ pending: GrowPendingRequest<Response>) async throws -> Response {
        try await send(pending)
    }

    // MARK: Internals

    private func startGeneration() {
        generation &+= 1
        customerToken = nil
        currentSession = nil
        snapshot = nil
    }

    /// Sends a customer (or relay) request and decodes it, enforcing the session rules.
    ///
    /// Actor reentrancy is the point here: while this call awaits the network,
    /// `reset` or `identify` may run, so the generation is compared after the
    /// await and a stale result is never applied.
    private func customerCall<Response: Decodable>(method: HTTPMethod, path: String, query: [(String, String)] = [],
                                                   body: Data? = nil, idempotencyKey: String? = nil,
                                                   relay: GrowRelayAuthentication? = nil) async throws -> Response {
        var credentials = GrowRequestExecutor.Credentials()
        switch relay {
        case nil, .customerTokenOnly?:
            break
        case .customerAndServerKey(let c)?, .serverKeyOnly(let c)?:
            credentials.serverKey = c.serverKey.value
        }
        if case .serverKeyOnly? = relay {
            credentials.bearer = nil
        } else {
            guard let token = customerToken else { throw GrowClientError.notAuthenticated }
            credentials.bearer = token
        }
        let requestGeneration = generation
        let request = try executor.request(method: method, path: path, query: query, body: body,
                                           idempotencyKey: idempotencyKey, credentials: credentials)
        let response: HTTPResponse
        do {
            response = try await executor.exchange(request)
        } catch {
            guard requestGeneration == generation else { throw GrowClientError.sessionChanged }
            throw error
        }
        guard requestGeneration == generation else { throw GrowClientError.sessionChanged }
        do {
            return try executor.decode(response, as: Response.self, secrets: credentials.secrets)
        } catch let error as GrowClientError {
            if credentials.bearer != nil, Self.clearsCustomer(error) { startGeneration() }
            throw error
        }
    }

    /// A 401 or 403 means the customer's token is no good here; a refused server key says nothing about it.
    private static func clearsCustomer(_ error: GrowClientError) -> Bool {
        switch error {
        case .unauthorized(code: .serverKeyInvalid): return false
        case .unauthorized, .scopeMismatch, .forbidden: return true
        default: return false
        }
    }
}
