import Foundation
import HTTPCore

/// A POST ready to send, and to send again unchanged.
///
/// The method, path, body bytes and `Idempotency-Key` are fixed when it is
/// prepared, so a retry after a timeout or lost response is byte-for-byte
/// the original request and the server can recognise it as a replay.
/// Credentials are not part of its description.
package struct GrowPendingRequest<Response: Decodable & Sendable>: Sendable, CustomStringConvertible {
    /// The HTTP method (`POST`).
    package let method: HTTPMethod
    /// The contract path (percent-encoded), below the base URL.
    package let path: String
    /// The exact body bytes sent on every attempt.
    package let body: Data
    /// The `Idempotency-Key` sent on every attempt, so the server sees a retry as a replay.
    package let idempotencyKey: String
    let authentication: Authentication

    enum Authentication: Sendable {
        case customer
        case relay(GrowRelayAuthentication)
        case server
    }

    init(method: HTTPMethod = .post, path: String, body: Data, idempotencyKey: String, authentication: Authentication) {
        self.method = method
        self.path = path
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.authentication = authentication
    }

    /// `POST /v1/funnels (Idempotency-Key …)`: no credential, no body.
    package var description: String { "\(method.rawValue) \(path) (Idempotency-Key \(idempotencyKey))" }
}
