import Foundation
import HTTPCore

/// Where and for which app the client speaks: base URL, publishable key and timeout.
///
/// HTTPS is required; plain `http://` is accepted only for loopback hosts
/// (127.0.0.0/8, ::1, localhost), which never certify (`TargetURL`).
package struct CherryClientConfiguration: Sendable, Hashable {
    /// `https://HOST[/PREFIX]`, without a trailing slash.
    package let baseURL: URL
    /// `iap_pk_…`, sent in `CherrySub-Publishable-Key` on every request (not a secret).
    package let publishableKey: String
    /// Seconds each request may take before it fails with a timeout.
    package let requestTimeout: TimeInterval

    /// Validates the target. Throws `CherryClientError.insecureTarget` for plain HTTP to a
    /// non-loopback host and `.invalidConfiguration` for anything else unusable. The `iap_pk_`
    /// prefix is not enforced, so a check can present a malformed key on purpose.
    package init(baseURL: URL, publishableKey: String, requestTimeout: TimeInterval = 30) throws {
        do {
            self.baseURL = try TargetURL.normalize(baseURL)
        } catch .insecure(let host) {
            throw CherryClientError.insecureTarget(host: host)
        } catch {
            throw CherryClientError.invalidConfiguration(error.description)
        }
        guard !publishableKey.isEmpty, HTTPHeaders.isSafeValue(publishableKey) else {
            throw CherryClientError.invalidConfiguration(
                "The publishable key must be a single line of printable ASCII (it starts with '\(CherryWire.publishableKeyPrefix)').")
        }
        guard requestTimeout > 0, requestTimeout.isFinite else {
            throw CherryClientError.invalidConfiguration("The request timeout must be a positive number of seconds.")
        }
        self.publishableKey = publishableKey
        self.requestTimeout = requestTimeout
    }

    /// The full URL for a contract path (already percent-encoded) and query.
    func url(path: String, query: [(String, String)] = []) -> URL? {
        TargetURL.url(base: baseURL, path: path, query: query)
    }
}
