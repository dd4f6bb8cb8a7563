import Foundation
import GrowClient
import StoreProof

/// The emulated GrooveGrow Sandbox, without HTTP: one request in, one response out.
///
/// A lock-guarded, in-memory state machine that behaves as a correct backend under
/// the v1 contract (scope, credentials, idempotency, one grant per verified receipt,
/// refunds, ledger paging) plus the `/_emulator` control endpoints. `SandboxEmulator`
/// serves it over HTTP; tests can call `handle(_:)` directly.
///
/// Every response carries `GrooveGrow-Sandbox-Kind: emulator` and
/// `Content-Type: application/json`. An injected delay is returned in
/// `HTTPServerResponse.delayMilliseconds` for the server to honour outside the lock.
public final class EmulatorBackend: @unchecked Sendable {
    /// The project this backend serves.
    public let projectId: UUID
    /// The server key that server and relay requests must present.
    public let serverKey: String
    /// The emulator's store-signing certificate (DER), the `x5c` leaf of every emulated transaction.
    public let signingCertificateDER: Data

    let bundleId: String
    let clock: any SandboxClock
    let projectText: String
    /// The sandbox kind every response declares (`emulator`, unless a test configured otherwise).
    let declaredKind: String
    /// Verifies App Store JWS to a test root (test seam, see `SandboxConfiguration.appStoreTestRootDER`); nil: none accepted.
    let appStoreTestVerifier: JWSVerifier?

    // Guards `state`, `counters` and `signer`: MHD calls `handle` from many threads at once.
    private let lock = NSLock()
    var state = EmulatorState()
    var counters = IdentifierCounters()
    let signer: StoreSigner

    /// Creates an empty backend and its signing key and certificate.
    ///
    /// - Throws: `SandboxError.invalidConfiguration` for an unusable configuration,
    ///   `SandboxError.crypto` when OpenSSL cannot make the key or certificate.
    public init(configuration: SandboxConfiguration) throws {
        try configuration.validate()
        projectId = configuration.projectId
        projectText = configuration.projectId.uuidString.lowercased()
        serverKey = configuration.serverKey
        bundleId = configuration.bundleId
        clock = configuration.clock
        declaredKind = configuration.declaredKind
        appStoreTestVerifier = configuration.appStoreTestRootDER.map { JWSVerifier(trustedRootDER: $0) }
        signer = try StoreSigner(now: configuration.clock.now())
        signingCertificateDER = signer.certificateDER
    }

    /// Handles one request and returns the response, with the emulator's common headers.
    public func handle(_ request: HTTPServerRequest) -> HTTPServerResponse {
        lock.lock()
        let (reply, delay) = process(request)
        lock.unlock()
        var response = Self.finish(reply, delay: delay)
        if declaredKind != WireVocabulary.sandboxKind {
            response.headers = response.headers.map { $0.name == Wire.Header.sandboxKind ? ($0.name, declaredKind) : $0 }
        }
        return response
    }

    /// The answer to a request body over the size limit.
    static func oversizeResponse(limit: Int) -> HTTPServerResponse {
        finish(.failure(APIFailure(.invalidRequest, "The request body is larger than \(limit) bytes; send a smaller body.")), delay: 0)
    }

    private static func finish(_ reply: Reply, delay: Int) -> HTTPServerResponse {
        var headers: [(name: String, value: String)] = [
            (Wire.Header.contentType, WireVocabulary.jsonMediaType),
            (Wire.Header.sandboxKind, WireVocabulary.sandboxKind),
        ]
        headers.append(contentsOf: reply.headers)
        return HTTPServerResponse(status: reply.status, headers: headers, body: reply.body, delayMilliseconds: delay)
    }

    // MARK: The pipeline (lock held)

    struct Caller {
        /// The customer a token names; nil for server credentials.
        var customerId: String?
        /// Identifies the credential, so idempotency keys are scoped per credential.
        var credentialKey: String
        /// When the customer token expires; nil for server credentials.
        var tokenExpiresAt: Date?
    }

    private func process(_ request: HTTPServerRequest) -> (Reply, Int) {
        var delay = 0
        if !request.path.hasPrefix(Wire.Path.emulatorPrefix), var fault = state.faults[request.path] {
            delay = fault.delayMs
            if fault.failNext > 0 {
                fault.failNext -= 1
                state.faults[request.path] = fault
                let code: WireErrorCode = fault.status == 429 ? .rateLimited : .unavailable
                let message = code == .rateLimited
                    ? "Too many requests (injected fault); retry after the Retry-After delay."
                    : "The emulator is unavailable (injected fault); retry later."
                return (.failure(APIFailure(code, message), status: fault.status), delay)
            }
        }
        do {
            return (try route(request), delay)
        } catch {
            return (.failure(error), delay)
        }
    }

    private func route(_ request: HTTPServerRequest) throws(APIFailure) -> Reply {
        let candidates = Route.all.compactMap { route in route.match(request.path).map { (route, $0) } }
        guard !candidates.isEmpty else {
            throw APIFailure(.notFound, "No endpoint at '\(request.path)'.")
        }
        guard let (route, parameter) = candidates.first(where: { $0.0.method == request.method }) else {
            let allowed = candidates.map(\.0.method).joined(separator: ", ")
            throw APIFailure(.invalidRequest, "Method '\(request.method)' is not allowed on '\(request.path)'; use \(allowed).")
        }
        let scope = try scopeHeaders(request)
        let caller = try authenticate(request, as: route.credential)
        guard scope.project == projectText, scope.environment == Wire.environment else {
            throw APIFailure(.scopeMismatch, "The credential is valid for project \(projectText), environment '\(Wire.environment)', not for the project and environment in the scope headers.")
        }
        guard route.method == "POST" else {
            return try dispatch(route.endpoint, parameter: parameter, request: request, caller: caller)
        }
        return try idempotent(request, caller: caller) { () throws(APIFailure) -> Reply in
            try dispatch(route.endpoint, parameter: parameter, request: request, caller: caller)
        }
    }

    private func dispatch(_ endpoint: Route.Endpoint, parameter: String, request: HTTPServerRequest, caller: Caller) throws(APIFailure) -> Reply {
        let customerId = caller.customerId ?? ""
        switch endpoint {
        case .session: return session(caller: caller)
        case .holdings: return try holdings(customerId: customerId)
        case .funnels: return try createFunnel(customerId: customerId, body: request.body)
        case .receipts: return try submitReceipt(customerId: customerId, orderId: parameter, body: request.body)
        case .order: return try order(customerId: customerId, orderId: parameter)
        case .ledger: return try ledger(customerId: customerId, query: request.query)
        case .relayRecover: return try recover(customerId: customerId, body: request.body)
        case .customerTokens: return try issueToken(body: request.body)
        case .consoleCustomer: return try consoleCustomer(customerId: parameter)
        case .emulatorCustomers: return try putCustomer(body: request.body)
        case .emulatorRunTokens: return try createRunToken(body: request.body)
        case .emulatorPurchases: return try purchase(body: request.body)
        case .emulatorRefunds: return try refund(body: request.body)
        case .emulatorFaults: return try setFault(body: request.body)
        case .emulatorReset: return reset()
        }
    }

    // MARK: Scope, credentials, idempotency

    private func scopeHeaders(_ request: HTTPServerRequest) throws(APIFailure) -> (project: String, environment: String) {
        guard let project = request.header(Wire.Header.project)?.trimmingCharacters(in: .whitespaces),
              let uuid = UUID(uuidString: project), uuid.uuidString.lowercased() == project else {
            throw APIFailure(.invalidRequest, "Header \(Wire.Header.project) must be the project's App UUID in lower case.")
        }
        guard let environment = request.header(Wire.Header.environment)?.trimmingCharacters(in: .whitespaces),
              !environment.isEmpty, environment.count <= 64,
              environment.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw APIFailure(.invalidRequest, "Header \(Wire.Header.environment) must name an environment, e.g. '\(Wire.environment)'.")
        }
        return (project, environment)
    }

    private static func bearer(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].caseInsensitiveCompare(WireVocabulary.bearer) == .orderedSame else { return nil }
        let credential = parts[1].trimmingCharacters(in: .whitespaces)
        return credential.isEmpty ? nil : credential
    }

    private func authenticate(_ request: HTTPServerRequest, as credential: Route.Credential) throws(APIFailure) -> Caller {
        let presented = Self.bearer(request.header(Wire.Header.authorization))
        switch credential {
        case .server:
            guard let presented, Self.sameSecret(presented, serverKey) else {
                throw APIFailure(.serverKeyInvalid, "A valid server key is required: send 'Authorization: \(WireVocabulary.bearer) \(Wire.serverKeyPrefix)…'.")
            }
            return Caller(customerId: nil, credentialKey: "server")
        case .customer:
            let token = try customerToken(presented)
            return Caller(customerId: token.customerId, credentialKey: "customer:" + (presented ?? ""), tokenExpiresAt: token.expiresAt)
        case .relay:
            let token = try customerToken(presented)
            guard let key = request.header(Wire.Header.serverKey)?.trimmingCharacters(in: .whitespaces),
                  Self.sameSecret(key, serverKey) else {
                throw APIFailure(.serverKeyInvalid, "The relay needs both the customer token and a valid server key in \(Wire.Header.serverKey).")
            }
            return Caller(customerId: token.customerId, credentialKey: "relay:" + (presented ?? ""), tokenExpiresAt: token.expiresAt)
        }
    }

    private func customerToken(_ token: String?) throws(APIFailure) -> EmulatorState.Token {
        guard let token, let record = state.tokens[token] else {
            throw APIFailure(.tokenInvalid, "A valid customer token is required: send 'Authorization: \(WireVocabulary.bearer) <customerToken>'.")
        }
        guard clock.now() < record.expiresAt else {
            throw APIFailure(.tokenExpired, "The customer token expired at \(RFC3339.format(record.expiresAt)); issue a new one.")
        }
        return record
    }

    /// Compares secrets without stopping at the first difference.
    private static func sameSecret(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for (p, q) in zip(x, y) { difference |= p ^ q }
        return difference == 0
    }

    private func idempotent(_ request: HTTPServerRequest, caller: Caller, perform: () throws(APIFailure) -> Reply) throws(APIFailure) -> Reply {
        guard let key = request.header(Wire.Header.idempotencyKey), (1...255).contains(key.utf8.count),
              key.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw APIFailure(.invalidRequest, "Every POST needs an \(Wire.Header.idempotencyKey) header of 1 to 255 printable ASCII characters.")
        }
        let storeKey = caller.credentialKey + "\n" + key
        if let stored = state.idempotency[storeKey] {
            guard stored.method == request.method, stored.path == request.path, stored.body == Self.canonicalBody(request.body) else {
                throw APIFailure(.idempotencyConflict, "\(Wire.Header.idempotencyKey) '\(key)' was already used with a different request; use a new key.")
            }
            return stored.reply
        }
        let reply: Reply
        do {
            reply = try perform()
        } catch {
            reply = .failure(error)
        }
        if reply.status < 500 {
            state.idempotency[storeKey] = .init(method: request.method, path: request.path,
                                                body: Self.canonicalBody(request.body), reply: reply)
        }
        return reply
    }

    /// The body with JSON object keys sorted, so that a client re-encoding the same request
    /// (key order is not stable across JSON encoders) still counts as the same body.
    /// Bodies that are not JSON are compared byte for byte.
    private static func canonicalBody(_ body: Data) -> Data {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
              let canonical = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return body }
        return canonical
    }

    // MARK: Helpers shared by the endpoints

    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(APIFailure) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIFailure(.invalidRequest, "The JSON body lacks the field '\(key.stringValue)'.")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw APIFailure(.invalidRequest, "The JSON field '\(Self.fieldPath(context))' has the wrong type.")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw APIFailure(.invalidRequest, "The JSON field '\(Self.fieldPath(context))' is invalid: \(context.debugDescription)")
        } catch {
            throw APIFailure(.invalidRequest, "The body is not valid JSON for this endpoint.")
        }
    }

    private static func fieldPath(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Customer and product identifiers chosen by callers: 1–128 visible ASCII characters, no `/`.
    static func isValidIdentifier(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "/") }
    }

    func holdingsBody(customerId: String) -> WireHoldings {
        let customer = state.customers[customerId] ?? EmulatorState.Customer()
        return WireHoldings(customerId: customerId, asOf: RFC3339.format(clock.now()),
                            memberships: customer.memberships, balances: customer.balances)
    }
}
