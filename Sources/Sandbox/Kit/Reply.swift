import Foundation

/// A backend answer before the common headers are added: status, body and any extra headers.
///
/// Vendor-neutral; each backend builds its own error bodies and adds its own headers.
struct Reply: Sendable {
    var status: Int
    var body: Data
    var headers: [(name: String, value: String)] = []

    /// Sorted keys and unescaped slashes, so equal values always give equal bytes.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` encoded as the body; nil when it cannot be encoded (the backend answers with its own error).
    static func encoded(_ status: Int, _ value: some Encodable) -> Reply? {
        guard let body = try? encoder.encode(value) else { return nil }
        return Reply(status: status, body: body)
    }
}

/// A request that a backend must refuse as malformed, with the message for the caller; each backend maps it
/// to its own "invalid request" error code.
struct RequestProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
