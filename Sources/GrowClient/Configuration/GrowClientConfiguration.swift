import Foundation
import HTTPCore

/// Where and as whom the client speaks: base URL, project and environment.
///
/// HTTPS is required; plain `http://` is accepted only for loopback hosts
/// (127.0.0.0/8, ::1, localhost), which never certify. The project and
/// environment go into the scope headers of every request; `withScope`
/// makes a copy with another project or environment so a check can send a
/// valid credential under the wrong scope.
package struct GrowClientConfiguration: Sendable, Hashable {
    /// `https://HOST[/PREFIX]`, without a trailing slash.
    package let baseURL: URL
    /// The App's project UUID, sent lowercase in `GrooveGrow-Project`.
    package let project: UUID
    /// Sent in `GrooveGrow-Environment`; `sandbox` unless a check deliberately sends another.
    package let environment: String
    /// Seconds each request may take before it fails with a timeout.
    package let requestTimeout: TimeInterval

    /// Validates the target. Throws `GrowClientError.insecureTarget` for plain HTTP to a
    /// non-loopback host and `.invalidConfiguration` for anything else unusable.
    package init(baseURL: URL, project: UUID, environment: String = GrowWire.environment, requestTimeout: TimeInterval = 30) throws {
        let normalized: URL
        do {
            normalized = try TargetURL.normalize(baseURL)
        } catch .insecure(let host) {
            throw GrowClientError.insecureTarget(host: host)
        } catch {
            throw GrowClientError.invalidConfiguration(error.description)
        }
        guard Self.isHeaderSafe(environment), !environment.isEmpty else {
            throw GrowClientError.invalidConfiguration("The environment must be a non-empty word such as 'sandbox'.")
        }
        guard requestTimeout > 0, requestTimeout.isFinite else {
            throw GrowClientError.invalidConfiguration("The request timeout must be a positive number of seconds.")
        }
        self.baseURL = normalized
        self.project = project
        self.environment = environment
        self.requestTimeout = requestTimeout
    }

    /// Parses a base URL and project UUID as typed by a user.
    package init(baseURL: String, project: String, environment: String = GrowWire.environment, requestTimeout: TimeInterval = 30) throws {
        guard let url = URL(string: baseURL.trimmingCharacters(in: .whitespaces)), url.scheme != nil else {
            throw GrowClientError.invalidConfiguration("'\(baseURL)' is not a URL. Use the Sandbox base URL, like 'https://sandbox.example.com'.")
        }
        guard let uuid = UUID(uuidString: project.trimmingCharacters(in: .whitespaces)) else {
            throw GrowClientError.invalidConfiguration("'\(project)' is not a project UUID. Copy the App UUID from the GrooveGrow console.")
        }
        try self.init(baseURL: url, project: uuid, environment: environment, requestTimeout: requestTimeout)
    }

    /// A copy that sends another project and/or environment in the scope headers.
    package func withScope(project: UUID? = nil, environment: String? = nil) throws -> GrowClientConfiguration {
        try GrowClientConfiguration(baseURL: baseURL, project: project ?? self.project,
                                    environment: environment ?? self.environment, requestTimeout: requestTimeout)
    }

    /// The `GrooveGrow-Project` header value: the UUID in lowercase.
    package var projectHeaderValue: String { project.uuidString.lowercased() }

    /// The full URL for a contract path (already percent-encoded) and query.
    func url(path: String, query: [(String, String)] = []) -> URL? {
        TargetURL.url(base: baseURL, path: path, query: query)
    }

    /// Printable ASCII without CR/LF, safe to put in a header.
    static func isHeaderSafe(_ value: String) -> Bool { HTTPHeaders.isSafeValue(value) }
}
