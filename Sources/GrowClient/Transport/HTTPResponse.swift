import Foundation

/// A response as a transport received it, any status.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    /// A response with any status.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The `GrooveGrow-Sandbox-Kind` this response declares; `unknown` when absent.
    public var sandboxKind: SandboxKind { SandboxKind(header: headers[Wire.Header.sandboxKind]) }
}
