import Foundation

/// Where and as whom the client speaks: base URL, project and environment.
///
/// HTTPS is required; plain `http://` is accepted only for loopback hosts
/// (127.0.0.0/8, ::1, localhost), which never certify. The project and
/// environment go into the scope headers of every request; `withScope`
/// makes a copy with another project or environment so a check can send a
/// valid credential under the wrong scope.
public struct GrowClientConfiguration: Sendable, Hashable {
    /// `https://HOST[/PREFIX]`, without a trailing slash.
    public let baseURL: URL
    /// The App's project UUID, sent lowercase in `GrooveGrow-Project`.
    public let project: UUID
    /// Sent in `GrooveGrow-Environment`; `sandbox` unless a check deliberately sends another.
    public let environment: String
    /// Seconds each request may take before it fails with a timeout.
    public let requestTimeout: TimeInterval

    /// Validates the target. Throws `GrowClientError.insecureTarget` for plain HTTP to a
    /// non-loopback host and `.invalidConfiguration` for anything else unusable.
    public init(baseURL: URL, project: UUID, environment: String = Wire.environment, requestTimeout: TimeInterval = 30) throws {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty else {
            throw GrowClientError.invalidConfiguration("The base URL must be absolute, like 'https://sandbox.example.com'.")
        }
        guard scheme == "https" || scheme == "http" else {
            throw GrowClientError.invalidConfiguration("The base URL scheme '\(scheme)' is not supported. Use https://.")
        }
        guard components.user == nil, components.password == nil else {
            throw GrowClientError.invalidConfiguration("The base URL must not contain a user name or password. Remove them; credentials are passed separately.")
        }
        guard components.query == nil, components.fragment == nil else {
            throw GrowClientError.invalidConfiguration("The base URL must not have a query or fragment.")
        }
        if scheme == "http" && !PeerAddress.isLoopbackHost(host) {
            throw GrowClientError.insecureTarget(host: host)
        }
        guard Self.isHeaderSafe(environment), !environment.isEmpty else {
            throw GrowClientError.invalidConfiguration("The environment must be a non-empty word such as 'sandbox'.")
        }
        guard requestTimeout > 0, requestTimeout.isFinite else {
            throw GrowClientError.invalidConfiguration("The request timeout must be a positive number of seconds.")
        }
        components.scheme = scheme
        while components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath.removeLast() }
        guard let normalized = components.url else {
            throw GrowClientError.invalidConfiguration("The base URL could not be parsed.")
        }
        self.baseURL = normalized
        self.project = project
        self.environment = environment
        self.requestTimeout = requestTimeout
    }

    /// Parses a base URL and project UUID as typed by a user.
    public init(baseURL: String, project: String, environment: String = Wire.environment, requestTimeout: TimeInterval = 30) throws {
        guard let url = URL(string: baseURL.trimmingCharacters(in: .whitespaces)), url.scheme != nil else {
            throw GrowClientError.invalidConfiguration("'\(baseURL)' is not a URL. Use the Sandbox base URL, like 'https://sandbox.example.com'.")
        }
        guard let uuid = UUID(uuidString: project.trimmingCharacters(in: .whitespaces)) else {
            throw GrowClientError.invalidConfiguration("'\(project)' is not a project UUID. Copy the App UUID from the GrooveGrow console.")
        }
        try self.init(baseURL: url, project: uuid, environment: environment, requestTimeout: requestTimeout)
    }

    /// A copy that sends another project and/or environment in the scope headers.
    public func withScope(project: UUID? = nil, environment: String? = nil) throws -> GrowClientConfiguration {
        try GrowClientConfiguration(baseURL: baseURL, project: project ?? self.project,
                                    environment: environment ?? self.environment, requestTimeout: requestTimeout)
    }

    /// The `GrooveGrow-Project` header value: the UUID in lowercase.
    public var projectHeaderValue: String { project.uuidString.lowercased() }

    /// The full URL for a contract path (already percent-encoded) and query.
    func url(path: String, query: [(String, String)] = []) -> URL? {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedPath += path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { "\(Wire.Path.escape($0.0))=\(Wire.Path.escape($0.1))" }.joined(separator: "&")
        }
        return components.url
    }

    /// Printable ASCII without CR/LF, safe to put in a header.
    static func isHeaderSafe(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7f }
    }
}
