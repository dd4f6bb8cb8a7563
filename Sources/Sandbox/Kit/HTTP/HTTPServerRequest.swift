import Foundation

/// One HTTP request as the emulator's handler sees it: already fully read, body included.
///
/// Header names are matched case-insensitively, as HTTP requires. The path is the
/// percent-decoded path without the query; query parameters are in `query`.
public struct HTTPServerRequest: Sendable, Equatable {
    /// The request method in upper case, e.g. `GET`.
    public var method: String
    /// The decoded path without the query string, e.g. `/v1/session`.
    public var path: String
    /// Query parameters; when a name repeats, the first value wins.
    public var query: [String: String]
    /// The request body (empty when there is none).
    public var body: Data
    private var headerValues: [String: String]

    /// Creates a request; header names are folded to lower case for lookup.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.body = body
        var folded: [String: String] = [:]
        for (name, value) in headers where folded[name.lowercased()] == nil {
            folded[name.lowercased()] = value
        }
        self.headerValues = folded
    }

    /// The value of a header, looked up case-insensitively; nil when absent.
    public func header(_ name: String) -> String? {
        headerValues[name.lowercased()]
    }

    /// All headers, names in lower case.
    public var headers: [String: String] { headerValues }
}
