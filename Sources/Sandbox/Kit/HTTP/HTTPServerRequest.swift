import Foundation

/// One HTTP request as the emulator's handler sees it: already fully read, body included.
///
/// Header names are matched case-insensitively, as HTTP requires. The path is the
/// percent-decoded path without the query; query parameters are in `query`.
package struct HTTPServerRequest: Sendable, Equatable {
    /// The request method in upper case, e.g. `GET`.
    package var method: String
    /// The decoded path without the query string, e.g. `/v1/session`.
    package var path: String
    /// Query parameters; when a name repeats, the first value wins.
    package var query: [String: String]
    /// The request body (empty when there is none).
    package var body: Data
    private var headerValues: [String: String]

    /// Creates a request; header names are folded to lower case for lookup.
    package init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
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
    package func header(_ name: String) -> String? {
        headerValues[name.lowercased()]
    }

    /// All headers, names in lower case.
    package var headers: [String: String] { headerValues }
}
