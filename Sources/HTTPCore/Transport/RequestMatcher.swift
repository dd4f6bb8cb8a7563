/// Chooses the requests a fault applies to.
package struct RequestMatcher: Sendable {
    private let predicate: @Sendable (HTTPRequest) -> Bool

    /// Matches requests for which `predicate` returns true.
    package init(_ predicate: @escaping @Sendable (HTTPRequest) -> Bool) { self.predicate = predicate }

    /// Whether `request` is chosen.
    package func matches(_ request: HTTPRequest) -> Bool { predicate(request) }

    /// Every request.
    package static let any = RequestMatcher { _ in true }

    /// Requests whose path (below the base URL's prefix, without the query) is `path`, optionally only for `method`.
    ///
    /// The path is compared at its end so a base URL with a prefix (`https://host/api`) still matches `/v1/holdings`.
    package static func path(_ path: String, method: HTTPMethod? = nil) -> RequestMatcher {
        RequestMatcher { request in
            (method == nil || request.method == method) && (request.path == path || (path.hasPrefix("/") && request.path.hasSuffix(path)))
        }
    }

    /// Requests whose path contains `fragment` (for example `/v1/orders/`), optionally only for `method`.
    package static func pathContaining(_ fragment: String, method: HTTPMethod? = nil) -> RequestMatcher {
        RequestMatcher { request in
            (method == nil || request.method == method) && request.path.contains(fragment)
        }
    }
}
