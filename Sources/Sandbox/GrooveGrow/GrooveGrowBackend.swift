import RFC3339Time
import Foundation
import HTTPCore
import GrowClient
import StoreProof
import Synchronization

/// The emulated GrooveGrow Sandbox, without HTTP: one request in, one response out.
///
/// A `Mutex`-guarded, in-memory state machine that behaves as a correct backend under
/// the v1 contract (scope, credentials, idempotency, one grant per verified receipt,
/// refunds, ledger paging) plus the `/_emulator` control endpoints. `GrooveGrowEmulator`
/// serves it over HTTP; tests can call `handle(_:)` directly.
///
/// Every response carries `GrooveGrow-Sandbox-Kind: emulator` and
/// `Content-Type: application/json`. An injected delay is returned in
/// `HTTPServerResponse.delayMilliseconds` for the server to honour outside the lock.
package final class GrooveGrowBackend: EmulatedBackend {
    /// The project this backend serves.
    package let projectId: UUID
    /// The server key that server and relay requests must present.
    package let serverKey: String
    /// The emulator's store-signing certificate (DER), the `x5c` leaf of every emulated transaction.
    package let signingCertificateDER: Data

    /// The sandbox kind every response declares (`emulator`, unless a test configured otherwise).
    let declaredKind: String
    private let clock: any SandboxClock
    // MHD calls `handle` from many threads at once.
    private let engine: Mutex<GrooveGrowEngine>

    /// Creates an empty backend and its signing key and certificate.
    ///
    /// - Throws: `SandboxError.invalidConfiguration` for an unusable configuration,
    ///   `SandboxError.crypto` when OpenSSL cannot make the key or certificate.
    package init(configuration: GrooveGrowConfiguration) throws {
        try configuration.validate()
        projectId = configuration.projectId
        serverKey = configuration.serverKey
        declaredKind = configuration.declaredKind
        clock = configuration.clock
        let signer = try StoreSigner(now: configuration.clock.now())
        signingCertificateDER = signer.certificateDER
        engine = Mutex(GrooveGrowEngine(
            projectText: configuration.projectId.uuidString.lowercased(), serverKey: configuration.serverKey,
            bundleId: configuration.bundleId, clock: configuration.clock,
            appStoreTestVerifier: configuration.appStoreTestRootDER.map { JWSVerifier(trustedRootDER: $0) },
            googlePlayTestKey: try configuration.googlePlayTestKeyDER.map { try GooglePlayLicenseKey(der: [UInt8]($0)) }, signer: signer))
    }

    /// The emulator's Google Play license key (DER SubjectPublicKeyInfo): what a demo campaign records so that the
    /// emulator's signed Google purchases verify (as `emulator-signed`, never certifying).
    package var playLicenseKeyDER: Data { engine.withLock { $0.signer.playLicenseKeyDER } }

    /// Test seam: registers a Google Play purchase signed with the test key, as Google Play would report it to the
    /// hosted Sandbox (see `GrooveGrowConfiguration.googlePlayTestKeyDER`); returns its token.
    func registerGooglePlayTestPurchase(originalJson: Data, signature: String, purchaseType: String) throws -> String {
        try engine.withLock { try $0.registerGooglePlayTestPurchase(originalJson: originalJson, signature: signature, purchaseType: purchaseType) }
    }

    /// The emulator's time: its injected clock.
    package var now: Date { clock.now() }

    /// Handles one request and returns the response, with the emulator's common headers.
    package func handle(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (reply, delay) = engine.withLock { $0.process(request) }
        var response = Self.finish(reply, delay: delay)
        if declaredKind != GrowWireVocabulary.sandboxKind {
            response.headers = response.headers.map { $0.name == GrowWire.Header.sandboxKind ? ($0.name, declaredKind) : $0 }
        }
        return response
    }

    /// The answer to a request body over the size limit.
    package func oversizeResponse(limit: Int) -> HTTPServerResponse {
        Self.finish(.failure(GrooveGrowFailure(.invalidRequest, "The request body is larger than \(limit) bytes; send a smaller body.")), delay: 0)
    }

    private static func finish(_ reply: Reply, delay: Int) -> HTTPServerResponse {
        var headers: [(name: String, value: String)] = [
            (GrowWire.Header.contentType, GrowWireVocabulary.jsonMediaType),
            (GrowWire.Header.sandboxKind, GrowWireVocabulary.sandboxKind),
        ]
        headers.append(contentsOf: reply.headers)
        return HTTPServerResponse(status: reply.status, headers: headers, body: reply.body, delayMilliseconds: delay)
    }
}

/// The GrooveGrow backend's state and request handling; only ever used under `GrooveGrowBackend`'s mutex.
struct GrooveGrowEngine {
    let projectText: String
    let serverKey: String
    let bundleId: String
    let clock: any SandboxClock
    /// Verifies App Store JWS to a test root (test seam, see `GrooveGrowConfiguration.appStoreTestRootDER`); nil: none accepted.
    let appStoreTestVerifier: JWSVerifier?
    /// The Google Play license key whose purchases the test seam registers (`GrooveGrowConfiguration.googlePlayTestKeyDER`).
    let googlePlayTestKey: GooglePlayLicenseKey?
    let signer: StoreSigner
    var state = GrooveGrowState()
    var counters = GrooveGrowCounters()

    init(projectText: String, serverKey: String, bundleId: String, clock: any SandboxClock,
         appStoreTestVerifier: JWSVerifier?, googlePlayTestKey: GooglePlayLicenseKey? = nil, signer: StoreSigner) {
        self.googlePlayTestKey = googlePlayTestKey
        self.projectText = projectText
        self.serverKey = serverKey
        self.bundleId = bundleId
        self.clock = clock
        self.appStoreTestVerifier = appStoreTestVerifier
        self.signer = signer
    }

    // MARK: The pipeline

    struct Caller {
        /// The customer a token names; nil for server credentials.
        var customerId: String?
        /// Identifies the credential, so idempotency keys are scoped per credential.
        var credentialKey: String
        /// When the customer token expires; nil for server credentials.
        var tokenExpiresAt: Date?
    }

    mutating func process(_ request: HTTPServerRequest) -> (Reply, Int) {
        var delay = 0
        if !request.path.hasPrefix(GrowWire.Path.emulatorPrefix) {
            let trip = state.faults.trip(path: request.path)
            delay = trip.delayMs
            if let status = trip.failStatus {
                let code: GrowWireErrorCode = status == 429 ? .rateLimited : .unavailable
                let message = code == .rateLimited
                    ? "Too many requests (injected fault); retry after the Retry-After delay."
                    : "The emulator is unavailable (injected fault); retry later."
                return (.failure(GrooveGrowFailure(code, message), status: status), delay)
            }
        }
        do {
            return (try route(request), delay)
        } catch {
            return (.failure(error), delay)
        }
    }

    private mutating func route(_ request: HTTPServerRequest) throws(GrooveGrowFailure) -> Reply {
        let route: GrooveGrowRoute
        let parameter: String
        switch GrooveGrowRoute.all.resolve(method: request.method, path: request.path) {
        case .notFound:
            throw GrooveGrowFailure(.notFound, "No endpoint at '\(request.path)'.")
        case .methodNotAllowed(let allowed):
            throw GrooveGrowFailure(.invalidRequest, "Method '\(request.method)' is not allowed on '\(request.path)'; use \(allowed).")
        case .found(let found, let captured):
            (route, parameter) = (found, captured)
        }
        let scope = try scopeHeaders(request)
        let caller = try authenticate(request, as: route.credential)
        guard scope.project == projectText, scope.environment == GrowWire.environment else {
            throw GrooveGrowFailure(.scopeMismatch, "The credential is valid for project \(projectText), environment '\(GrowWire.environment)', not for the project and environment in the scope headers.")
        }
        guard route.method == "POST" else {
            return try dispatch(route.endpoint, parameter: parameter, request: request, caller: caller)
        }
        guard let key = request.header(GrowWire.Header.idempotencyKey), IdempotencyKey.isWellFormed(key) else {
            throw GrooveGrowFailure(.invalidRequest, "Every POST needs an \(GrowWire.Header.idempotencyKey) header of 1 to 255 printable ASCII characters.")
        }
        let fingerprint = Data((request.method + " " + request.path + "\n").utf8) + JSONBody.canonical(request.body)
        switch state.idempotency.lookup(scope: caller.credentialKey, key: key, fingerprint: fingerprint) {
        case .replay(let reply):
            return reply
        case .conflict:
            throw GrooveGrowFailure(.idempotencyConflict, "\(GrowWire.Header.idempotencyKey) '\(key)' was already used with a different request; use a new key.")
        case .fresh:
            break
        }
        let reply: Reply
        do {
            reply = try dispatch(route.endpoint, parameter: parameter, request: request, caller: caller)
        } catch {
            reply = .failure(error)
        }
        if reply.status < 500 {
            state.idempotency.keep(reply, scope: caller.credentialKey, key: key, fingerprint: fingerprint)
        }
        return reply
    }

    private mutating func dispatch(_ endpoint: GrooveGrowEndpoint, parameter: String, request: HTTPServerRequest, caller: Caller) throws(GrooveGrowFailure) -> Reply {
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

    // MARK: Scope and credentials

    private func scopeHeaders(_ request: HTTPServerRequest) throws(GrooveGrowFailure) -> (project: String, environment: String) {
        guard let project = request.header(GrowWire.Header.project)?.trimmingCharacters(in: .whitespaces),
              let uuid = UUID(uuidString: project), uuid.uuidString.lowercased() == project else {
            throw GrooveGrowFailure(.invalidRequest, "Header \(GrowWire.Header.project) must be the project's App UUID in lower case.")
        }
        guard let environment = request.header(GrowWire.Header.environment)?.trimmingCharacters(in: .whitespaces),
              !environment.isEmpty, environment.count <= 64,
              environment.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw GrooveGrowFailure(.invalidRequest, "Header \(GrowWire.Header.environment) must name an environment, e.g. '\(GrowWire.environment)'.")
        }
        return (project, environment)
    }

    private func authenticate(_ request: HTTPServerRequest, as credential: GrooveGrowCredential) throws(GrooveGrowFailure) -> Caller {
        let presented = Credentials.bearer(request.header(GrowWire.Header.authorization), scheme: GrowWireVocabulary.bearer)
        switch credential {
        case .server:
            guard let presented, Credentials.sameSecret(presented, serverKey) else {
                throw GrooveGrowFailure(.serverKeyInvalid, "A valid server key is required: send 'Authorization: \(GrowWireVocabulary.bearer) \(GrowWire.serverKeyPrefix)…'.")
            }
            return Caller(customerId: nil, credentialKey: "server")
        case .customer:
            let token = try customerToken(presented)
            return Caller(customerId: token.customerId, credentialKey: "customer:" + (presented ?? ""), tokenExpiresAt: token.expiresAt)
        case .relay:
            let token = try customerToken(presented)
            guard let key = request.header(GrowWire.Header.serverKey)?.trimmingCharacters(in: .whitespaces),
                  Credentials.sameSecret(key, serverKey) else {
                throw GrooveGrowFailure(.serverKeyInvalid, "The relay needs both the customer token and a valid server key in \(GrowWire.Header.serverKey).")
            }
            return Caller(customerId: token.customerId, credentialKey: "relay:" + (presented ?? ""), tokenExpiresAt: token.expiresAt)
        }
    }

    private func customerToken(_ token: String?) throws(GrooveGrowFailure) -> GrooveGrowState.Token {
        guard let token, let record = state.tokens[token] else {
            throw GrooveGrowFailure(.tokenInvalid, "A valid customer token is required: send 'Authorization: \(GrowWireVocabulary.bearer) <customerToken>'.")
        }
        guard clock.now() < record.expiresAt else {
            throw GrooveGrowFailure(.tokenExpired, "The customer token expired at \(RFC3339.format(record.expiresAt)); issue a new one.")
        }
        return record
    }

    // MARK: Helpers shared by the endpoints

    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(GrooveGrowFailure) -> T {
        do throws(RequestProblem) {
            return try JSONBody.decode(T.self, from: body)
        } catch {
            throw GrooveGrowFailure(error)
        }
    }

    /// Customer and product identifiers chosen by callers: 1–128 visible ASCII characters, no `/`.
    static func isValidIdentifier(_ text: String) -> Bool {
        Credentials.isValidIdentifier(text)
    }

    func holdingsBody(customerId: String) -> GrowWireHoldings {
        let customer = state.customers[customerId] ?? GrooveGrowState.Customer()
        return GrowWireHoldings(customerId: customerId, asOf: RFC3339.format(clock.now()),
                            memberships: customer.memberships, balances: customer.balances)
    }
}
