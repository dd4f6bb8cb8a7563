import RFC3339Time
import CherryClient
import Foundation
import HTTPCore
import StoreProof

/// The CherrySub backend's state and request handling; only ever used under `CherrySubBackend`'s mutex.
struct CherrySubEngine {
    let publishableKey: String
    let secretKey: String
    let bundleId: String
    /// The injected clock; the emulator's own time is this plus `state.clockOffset`.
    let baseClock: any SandboxClock
    /// Verifies App Store JWS to the trusted root (Apple Root CA - G3 unless a test injected its own).
    let storeVerifier: JWSVerifier
    let signer: StoreSigner
    var state = CherrySubState()
    var counters = CherrySubCounters()

    init(publishableKey: String, secretKey: String, bundleId: String, baseClock: any SandboxClock,
         storeVerifier: JWSVerifier, signer: StoreSigner) {
        self.publishableKey = publishableKey
        self.secretKey = secretKey
        self.bundleId = bundleId
        self.baseClock = baseClock
        self.storeVerifier = storeVerifier
        self.signer = signer
    }

    /// The emulator's time: the injected clock moved ahead by `/_emulator/clock`.
    var now: Date { baseClock.now().addingTimeInterval(state.clockOffset) }

    /// Who made a request, after authentication.
    enum Caller {
        case broker
        case customer(appUserId: String)

        /// The idempotency scope's caller part: keys are per app user (any of its tokens) or per broker.
        var scope: String {
            switch self {
            case .broker: return "broker"
            case .customer(let appUserId): return "user:" + appUserId
            }
        }
    }

    // MARK: The pipeline

    mutating func process(_ request: HTTPServerRequest) -> (Reply, Int) {
        // Subscriptions whose expiresAt passed (by the injected clock or /_emulator/clock) end before anything is read.
        expireDue()
        var delay = 0
        if !CherryWire.Path.isEmulator(request.path) {
            let trip = state.faults.trip(path: request.path)
            delay = trip.delayMs
            if let status = trip.failStatus {
                let failure = status == 429
                    ? CherrySubFailure(.rateLimited, "Too many requests (injected fault); retry after the Retry-After delay.")
                    : CherrySubFailure(.unavailable, "The emulator is unavailable (injected fault); retry later.", status: status)
                return (CherrySubReply.failure(failure), delay)
            }
        }
        do {
            return (try route(request), delay)
        } catch {
            return (CherrySubReply.failure(error), delay)
        }
    }

    private mutating func route(_ request: HTTPServerRequest) throws(CherrySubFailure) -> Reply {
        let route: CherrySubRoute
        let parameter: String
        switch CherrySubRoute.all.resolve(method: request.method, path: request.path) {
        case .notFound:
            throw CherrySubFailure(.notFound, "No endpoint at '\(request.path)'.")
        case .methodNotAllowed(let allowed):
            throw CherrySubFailure(.invalidRequest, "Method '\(request.method)' is not allowed on '\(request.path)'; use \(allowed).")
        case .found(let found, let captured):
            (route, parameter) = (found, captured)
        }
        // Authentication before authorisation: the publishable key's shape (400), the credential (401), then
        // whether they belong together (403).
        let presentedKey = try publishableKeyHeader(request)
        let caller = try authenticate(request, as: route.credential, presentedKey: presentedKey)
        guard route.method == "POST", !CherryWire.Path.isEmulator(request.path) else {
            return try dispatch(route.endpoint, parameter: parameter, request: request, caller: caller)
        }
        guard let key = request.header(CherryWire.Header.idempotencyKey), IdempotencyKey.isWellFormed(key) else {
            throw CherrySubFailure(.invalidRequest,
                                   "Every POST needs an \(CherryWire.Header.idempotencyKey) header of 1 to 255 printable ASCII characters.")
        }
        let scope = caller.scope + " " + request.path
        let fingerprint = JSONBody.canonical(request.body)
        switch state.idempotency.lookup(scope: scope, key: key, fingerprint: fingerprint) {
        case .replay(let reply):
            return reply
        case .conflict:
            throw CherrySubFailure(.idempotencyConflict,
                                   "\(CherryWire.Header.idempotencyKey) '\(key)' was already used on this path with another body; use a new key.")
        case .fresh:
            break
        }
        let reply = try dispatch(route.endpoint, parameter: parameter, request: request, caller: caller)
        if (200..<300).contains(reply.status) {
            state.idempotency.keep(reply, scope: scope, key: key, fingerprint: fingerprint)
        }
        return reply
    }

    private mutating func dispatch(_ endpoint: CherrySubEndpoint, parameter: String, request: HTTPServerRequest,
                                   caller: Caller) throws(CherrySubFailure) -> Reply {
        let appUserId: String
        switch caller {
        case .broker: appUserId = ""
        case .customer(let id): appUserId = id
        }
        switch endpoint {
        case .issueToken: return try issueToken(body: request.body)
        case .revokeToken: return try revokeToken(tokenId: parameter)
        case .serverSubscriber: return try subscriber(appUserId: parameter)
        case .currentProductSet: return try currentProductSet(caller: appUserId, query: request.query)
        case .submitTransaction: return try submitTransaction(caller: appUserId, body: request.body)
        case .subscriber:
            try requireSameUser(appUserId, parameter)
            return try subscriber(appUserId: parameter)
        case .ledger:
            try requireSameUser(appUserId, parameter)
            return try ledger(appUserId: parameter, query: request.query)
        case .emulatorAppUsers: return try addAppUser(body: request.body)
        case .emulatorProductSets: return try setProductSet(body: request.body)
        case .emulatorPurchases: return try storePurchase(body: request.body)
        case .emulatorNotifications: return try storeNotification(body: request.body)
        case .emulatorClock: return try advanceClock(body: request.body)
        case .emulatorFaults: return try setFault(body: request.body)
        case .emulatorReset: return reset()
        }
    }

    // MARK: Publishable key and credentials

    private func publishableKeyHeader(_ request: HTTPServerRequest) throws(CherrySubFailure) -> String {
        guard let key = request.header(CherryWire.Header.publishableKey)?.trimmingCharacters(in: .whitespaces), !key.isEmpty else {
            throw CherrySubFailure(.invalidRequest, "Every request needs a \(CherryWire.Header.publishableKey) header (\(CherryWire.publishableKeyPrefix)…).")
        }
        guard (try? ConfigurationRules.requireKeyShape(key, prefix: CherryWire.publishableKeyPrefix, name: "publishable key")) != nil else {
            throw CherrySubFailure(.invalidRequest,
                                   "Header \(CherryWire.Header.publishableKey) must be a publishable key: '\(CherryWire.publishableKeyPrefix)' followed by letters, digits, '_' or '-'.")
        }
        return key
    }

    private func authenticate(_ request: HTTPServerRequest, as credential: CherrySubCredential,
                              presentedKey: String) throws(CherrySubFailure) -> Caller {
        let presented = Credentials.bearer(request.header(CherryWire.Header.authorization), scheme: CherryWire.bearer)
        switch credential {
        case .secretKey:
            guard let presented, Credentials.sameSecret(presented, secretKey) else {
                throw CherrySubFailure(.secretKeyInvalid, "A valid secret key is required: send 'Authorization: \(CherryWire.bearer) \(CherryWire.secretKeyPrefix)…'.")
            }
            guard Credentials.sameSecret(presentedKey, publishableKey) else {
                throw CherrySubFailure(.keyMismatch, "The secret key belongs to another app or environment than the publishable key.")
            }
            return .broker
        case .customer:
            guard let presented, let token = state.tokens[presented] else {
                throw CherrySubFailure(.tokenInvalid, "A valid customer token is required: send 'Authorization: \(CherryWire.bearer) <customerToken>'.")
            }
            guard !token.revoked else {
                throw CherrySubFailure(.tokenRevoked, "The customer token was revoked (logout); ask the broker for a new one.")
            }
            guard now < token.expiresAt else {
                throw CherrySubFailure(.tokenExpired, "The customer token expired at \(RFC3339.format(token.expiresAt)); ask the broker for a new one.")
            }
            guard token.publishableKey == presentedKey else {
                throw CherrySubFailure(.keyMismatch, "The customer token belongs to another app or environment than the publishable key.")
            }
            return .customer(appUserId: token.appUserId)
        }
    }

    /// `403 app_user_mismatch` unless the token's app user is the one the request names.
    func requireSameUser(_ tokenUser: String, _ named: String) throws(CherrySubFailure) {
        guard tokenUser == named else {
            throw CherrySubFailure(.appUserMismatch, "The customer token is for another app user than '\(named)'.")
        }
    }

    // MARK: Helpers shared by the endpoints

    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(CherrySubFailure) -> T {
        do throws(RequestProblem) {
            return try JSONBody.decode(T.self, from: body)
        } catch {
            throw CherrySubFailure(error)
        }
    }

    /// An identifier a caller chose: 1–128 visible ASCII characters without `/`; else `400` naming `field`.
    func requireIdentifier(_ text: String, _ field: String) throws(CherrySubFailure) {
        guard Credentials.isValidIdentifier(text) else {
            throw CherrySubFailure(.invalidRequest, "'\(field)' must be 1 to 128 visible ASCII characters without '/'.")
        }
    }
}
