/// A vendor's table of `error.code` values: each code's raw text and whether a retry may help.
package protocol ErrorCodeTable: RawRepresentable, Sendable where RawValue == String {
    /// Whether the vendor's contract marks the code retryable.
    var retryable: Bool { get }
}

/// `{"error": {"code", "message", "retryable"}}`, the error body both vendors send with a non-2xx status.
///
/// `Code` is the vendor's code table (each client core's code enum); the
/// stored code is the text as sent, so a body with a code the table does not know
/// still decodes (what it means is the vendor's error mapping to say).
package struct ErrorBody<Code: ErrorCodeTable>: Codable, Sendable, Equatable {
    /// The `error` object.
    package struct Detail: Codable, Sendable, Equatable {
        /// The code as sent; `Code(rawValue:)` tells whether the vendor's table knows it.
        package var code: String
        /// Human-readable text; may be empty.
        package var message: String
        /// Whether a retry may succeed.
        package var retryable: Bool
        /// A detail from its parts.
        package init(code: String, message: String, retryable: Bool) {
            self.code = code
            self.message = message
            self.retryable = retryable
        }
    }

    /// The `error` object.
    package var error: Detail

    /// The body the vendor's table pairs with `code` (its `retryable` included).
    package init(code: Code, message: String) {
        error = Detail(code: code.rawValue, message: message, retryable: code.retryable)
    }
}
