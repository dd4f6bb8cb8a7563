/// One endpoint of a vendor's contract as a backend routes it.
protocol EmulatorRoute: Sendable {
    /// The method, e.g. `POST`.
    var method: String { get }
    /// The path, with at most one parameter.
    var template: PathTemplate { get }
}

/// What a request's method and path resolve to.
enum RouteResolution<Route: EmulatorRoute> {
    /// No endpoint has this path.
    case notFound
    /// Endpoints have this path, but none this method; `allowed` lists theirs (`GET, POST`).
    case methodNotAllowed(allowed: String)
    /// The endpoint and the captured path parameter ("" when there is none).
    case found(Route, parameter: String)
}

extension Array where Element: EmulatorRoute {
    /// The route for `method` and `path`.
    func resolve(method: String, path: String) -> RouteResolution<Element> {
        let candidates = compactMap { route in route.template.match(path).map { (route, $0) } }
        guard !candidates.isEmpty else { return .notFound }
        guard let (route, parameter) = candidates.first(where: { $0.0.method == method }) else {
            return .methodNotAllowed(allowed: candidates.map(\.0.method).joined(separator: ", "))
        }
        return .found(route, parameter: parameter)
    }
}
