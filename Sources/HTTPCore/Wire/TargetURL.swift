import Foundation

/// The base URL rule both vendors share: `https://HOST[/PREFIX]`, `http://` only for loopback hosts (which never certify).
package enum TargetURL {
    /// Why a base URL is unusable.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not absolute, or no host.
        case notAbsolute
        /// A scheme other than `https` or `http`.
        case unsupportedScheme(String)
        /// A user name or password in the URL.
        case hasCredentials
        /// A query or a fragment.
        case hasQueryOrFragment
        /// Plain `http://` to a host that is not loopback.
        case insecure(host: String)
        /// Foundation could not rebuild the URL.
        case unparseable

        /// What was wrong and what to do.
        package var description: String {
            switch self {
            case .notAbsolute: return "The base URL must be absolute, like 'https://sandbox.example.com'."
            case .unsupportedScheme(let scheme): return "The base URL scheme '\(scheme)' is not supported. Use https://."
            case .hasCredentials:
                return "The base URL must not contain a user name or password. Remove them; credentials are passed separately."
            case .hasQueryOrFragment: return "The base URL must not have a query or fragment."
            case .insecure(let host): return "Plain HTTP to '\(host)' is not allowed: use https:// (http:// only for loopback hosts)."
            case .unparseable: return "The base URL could not be parsed."
            }
        }
    }

    /// `url` with a lowercase scheme and no trailing slash, or the problem with it.
    package static func normalize(_ url: URL) throws(Problem) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty else {
            throw .notAbsolute
        }
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(scheme) }
        guard components.user == nil, components.password == nil else { throw .hasCredentials }
        guard components.query == nil, components.fragment == nil else { throw .hasQueryOrFragment }
        if scheme == "http" && !PeerAddress.isLoopbackHost(host) { throw .insecure(host: host) }
        components.scheme = scheme
        while components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath.removeLast() }
        guard let normalized = components.url else { throw .unparseable }
        return normalized
    }

    /// The host of `url` when it is plain HTTP to a host that is not loopback (a request that must not be sent); else nil.
    package static func insecureHost(of url: URL) -> String? {
        guard let host = url.host, url.scheme?.lowercased() != "https", !PeerAddress.isLoopbackHost(host) else { return nil }
        return host
    }

    /// The full URL for a contract path (already percent-encoded) and query below `base`.
    package static func url(base: URL, path: String, query: [(String, String)] = []) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedPath += path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
        }
        return components.url
    }

    /// Percent-escapes an identifier for use as one path segment or query value.
    package static func escape(_ segment: String) -> String {
        // RFC 3986 unreserved characters only (ASCII): `alphanumerics` would let non-ASCII letters through.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}
