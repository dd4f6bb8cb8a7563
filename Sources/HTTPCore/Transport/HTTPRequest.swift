import Foundation

/// A request as a transport sends it.
package struct HTTPRequest: Sendable, Hashable {
    /// The HTTP method.
    package var method: HTTPMethod
    /// The absolute URL, query included.
    package var url: URL
    /// The header fields to send, in order.
    package var headers: HTTPHeaders
    /// The body bytes; nil for none.
    package var body: Data?
    /// Seconds to wait for the response before the transport throws `TransportError.timeout`.
    package var timeout: TimeInterval

    /// A request; `timeout` is in seconds.
    package init(method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: Data? = nil, timeout: TimeInterval = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The percent-encoded path, without the query (`/v1/orders/o_1`).
    package var path: String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// The path with its query, as the request line shows it (`/v1/ledger?limit=100`).
    package var pathAndQuery: String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        guard let query = components?.percentEncodedQuery, !query.isEmpty else { return path }
        return path + "?" + query
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `GET https://host/v1/holdings`: no headers or body, so printing a request cannot leak a credential.
    package var description: String { "\(method.rawValue) \(url.absoluteString)" }
    /// The same as `description`: no headers, no body.
    package var debugDescription: String { description }

    /// Reflection (`dump`, test failure output) shows header names only and the body size only.
    ///
    /// Which headers carry credentials is the vendor's to say (`SandboxDialect`), and a request
    /// does not know its vendor, so no header value is shown.
    package var customMirror: Mirror {
        let shownHeaders = headers.map { "\($0.name): \(Redactor.placeholder)" }
        return Mirror(self, children: ["method": method, "url": url, "headers": shownHeaders,
                                       "body": body.map { "\($0.count) bytes" } ?? "none", "timeout": timeout],
                      displayStyle: .struct)
    }
}
