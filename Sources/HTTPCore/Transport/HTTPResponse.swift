import Foundation

/// A response as a transport received it, any status.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data
    /// What the transport measured about the connection; nil from transports that measure nothing (stubs).
    public var connection: ConnectionFacts?

    /// A response with any status.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), connection: ConnectionFacts? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.connection = connection
    }

    /// The kind this response declares in the dialect's kind header; `unknown` when absent.
    public func sandboxKind(in dialect: SandboxDialect) -> SandboxKind { SandboxKind(header: headers[dialect.kindHeader]) }
}
