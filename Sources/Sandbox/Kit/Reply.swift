import Foundation
import HTTPCore

/// A backend answer before the common headers are added: status, body and any extra headers.
///
/// Vendor-neutral; bodies are encoded as the client cores encode them (`WireJSON`), and each backend adds
/// its own headers.
struct Reply: Sendable {
    var status: Int
    var body: Data
    var headers: [(name: String, value: String)] = []

    /// `value` encoded as the body; nil when it cannot be encoded (the backend answers with its own error).
    static func encoded(_ status: Int, _ value: some Encodable) -> Reply? {
        guard let body = try? WireJSON.encode(value) else { return nil }
        return Reply(status: status, body: body)
    }

    /// The `{"error": {"code", "message", "retryable"}}` body of `code`, with a one-second `Retry-After` under
    /// `retryAfterHeader` when given.
    static func error<Code: ErrorCodeTable>(_ code: Code, _ message: String, status: Int, retryAfterHeader: String?) -> Reply {
        var reply = Reply(status: status, body: (try? WireJSON.encode(ErrorBody(code: code, message: message))) ?? Data())
        if let retryAfterHeader {
            reply.headers.append((retryAfterHeader, "1"))
        }
        return reply
    }
}

/// A request that a backend must refuse as malformed, with the message for the caller; each backend maps it
/// to its own "invalid request" error code.
struct RequestProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
