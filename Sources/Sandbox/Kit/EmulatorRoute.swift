/// One endpoint of a vendor's contract as a backend routes it: method, path template, what it does and
/// which credential it takes (the vendor's own `Endpoint` and `Credential` enums).
struct EmulatorRoute<Endpoint: Sendable, Credential: Sendable>: Sendable {
    /// The method, e.g. `POST`.
    let method: String
    /// The path, with at most one parameter.
    let template: PathTemplate
    let endpoint: Endpoint
    let credential: Credential

    /// A route for `path`, built from the vendor's path function (with `PathTemplate.marker` for its parameter).
    init(_ method: String, _ path: String, _ endpoint: Endpoint, _ credential: Credential) {
        self.method = method
        self.template = PathTemplate(path)
        self.endpoint = endpoint
        self.credential = credential
    }
}

/// What a request's method and path resolve to.
enum RouteResolution<Endpoint: Sendable, Credential: Sendable> {
    /// No endpoint has this path.
    case notFound
    /// Endpoints have this path, but none this method; `allowed` lists theirs (`GET, POST`).
    case methodNotAllowed(allowed: String)
    /// The endpoint and the captured path parameter ("" when there is none).
    case found(EmulatorRoute<Endpoint, Credential>, parameter: String)
}

extension Array {
    /// The route for `method` and `path`.
    func resolve<Endpoint, Credential>(method: String, path: String) -> RouteResolution<Endpoint, Credential>
        where Element == EmulatorRoute<Endpoint, Credential> {
        let candidates = compactMap { route in route.template.match(path).map { (route, $0) } }
        guard !candidates.isEmpty else { return .notFound }
        guard let (route, parameter) = candidates.first(where: { $0.0.method == method }) else {
            return .methodNotAllowed(allowed: candidates.map(\.0.method).joined(separator: ", "))
        }
        return .found(route, parameter: parameter)
    }
}
