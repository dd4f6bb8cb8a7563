import Foundation

/// The response a handler gives back to `HTTPServer`.
///
/// `delayMilliseconds` makes the server hold the response for that long in the
/// connection's own thread, so an injected delay never stalls other connections.
package struct HTTPServerResponse: Sendable, Equatable {
    /// The HTTP status code.
    package var status: Int
    /// Response headers in the order they are sent.
    package var headers: [(name: String, value: String)]
    /// The response body.
    package var body: Data
    /// How long to wait before sending the response (0 = none).
    package var delayMilliseconds: Int

    /// Creates a response.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data(), delayMilliseconds: Int = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delayMilliseconds = delayMilliseconds
    }

    /// The value of a response header, looked up case-insensitively; nil when absent.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Equal when status, headers (in order), body and delay are equal.
    package static func == (a: HTTPServerResponse, b: HTTPServerResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.delayMilliseconds == b.delayMilliseconds
            && a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] }
    }
}
