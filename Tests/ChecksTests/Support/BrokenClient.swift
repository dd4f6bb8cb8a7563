import Foundation
import GrowClient
import HTTPCore
@testable import Checks

/// A deliberately naive session client, with switchable flaws, for testing the switch and network checks.
///
/// It has no session generations, so a late response always lands in the
/// snapshot: that alone breaks `switch.late-response-dropped`.
actor BrokenClient: SessionClient {
    struct Flaws: OptionSet, Sendable {
        let rawValue: Int
        /// `reset()` forgets nothing.
        static let keepsDataOnReset = Flaws(rawValue: 1)
        /// `reset()` forgets the data, but customer calls are still sent (without a token).
        static let sendsAfterReset = Flaws(rawValue: 2)
        /// Writes the token to `tokenFile` on identify.
        static let writesTokenToDisk = Flaws(rawValue: 4)
        /// A new instance reads the token back from `tokenFile`.
        static let restoresTokenFromDisk = Flaws(rawValue: 8)
        /// A transport failure returns the last snapshot as if it were fresh.
        static let swallowsFailures = Flaws(rawValue: 16)
    }

    private let configuration: GrowClientConfiguration
    private let transport: any HTTPTransport
    private let flaws: Flaws
    private let tokenFile: URL?
    private var token: String?
    private(set) var currentSession: GrowWireSession?
    private(set) var snapshot: GrowWireHoldings?

    init(configuration: GrowClientConfiguration, transport: any HTTPTransport, flaws: Flaws, tokenFile: URL? = nil) {
        self.configuration = configuration
        self.transport = transport
        self.flaws = flaws
        self.tokenFile = tokenFile
        if flaws.contains(.restoresTokenFromDisk), let tokenFile, let saved = try? String(contentsOf: tokenFile, encoding: .utf8) {
            token = saved
        }
    }

    var hasCustomerToken: Bool { token != nil }

    func identify(customerToken: String) async throws -> GrowWireSession {
        token = customerToken
        currentSession = nil
        snapshot = nil
        if flaws.contains(.writesTokenToDisk), let tokenFile {
            try Data(customerToken.utf8).write(to: tokenFile)
        }
        let session: GrowWireSession = try await get(GrowWire.Path.session)
        currentSession = session
        return session
    }

    func reset() {
        if flaws.contains(.keepsDataOnReset) { return }
        token = nil
        currentSession = nil
        snapshot = nil
    }

    func readHoldings() async throws -> GrowWireHoldings {
        guard token != nil || flaws.contains(.sendsAfterReset) else { throw GrowClientError.notAuthenticated }
        do {
            let holdings: GrowWireHoldings = try await get(GrowWire.Path.holdings)
            snapshot = holdings
            return holdings
        } catch let error as TransportError where flaws.contains(.swallowsFailures) {
            guard let snapshot else { throw error }
            return snapshot
        }
    }

    private func get<T: Decodable>(_ path: String) async throws -> T {
        guard let url = URL(string: configuration.baseURL.absoluteString + path) else { throw GrowClientError.invalidArgument("url") }
        var headers = HTTPHeaders()
        headers[GrowWire.Header.project] = configuration.projectHeaderValue
        headers[GrowWire.Header.environment] = configuration.environment
        if let token { headers[GrowWire.Header.authorization] = "Bearer \(token)" }
        let response = try await transport.send(HTTPRequest(method: .get, url: url, headers: headers))
        switch response.status {
        case 200: return try JSONDecoder().decode(T.self, from: response.body)
        case 401: throw GrowClientError.unauthorized(code: .tokenInvalid)
        case 403: throw GrowClientError.scopeMismatch
        default: throw GrowClientError.retryable(reason: .server(status: response.status))
        }
    }
}
