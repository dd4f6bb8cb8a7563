import Foundation

/// A response as a transport received it, any status.
package struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    package var status: Int
    /// The header fields received, in order.
    package var headers: HTTPHeaders
    /// The body bytes; empty when there was none.
    package var body: Data
    /// What the transport measured about the connection; nil from transports that measure nothing (stubs).
    package var connection: ConnectionFacts?

    /// A response with any status.
    package init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), connection: ConnectionFacts? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.connection = connection
    }

    /// The kind this response declares in the dialect's kind header; `unknown` when absent.
    package func sandboxKind(in dialect: SandboxDialect) -> SandboxKind { SandboxKind(header: headers[dialect.kindHeader]) }
}
