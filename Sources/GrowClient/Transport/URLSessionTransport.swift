import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The production transport: URLSession with nothing kept on disk.
///
/// The session is ephemeral with cookies, the URL cache and credential
/// storage switched off, so no token or response is ever written to disk.
/// Certificate validation is the system's default; this type installs no
/// trust override. Redirects are not followed: a 3xx comes back as a
/// response, so credentials are never replayed to another location.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport with its own ephemeral session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request; every HTTP status is returned, only a missing response throws `TransportError`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw Self.map(error.code)
        } catch is CancellationError {
            throw TransportError.cancelled
        } catch {
            throw TransportError.failed(String(describing: type(of: error)))
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError.failed("the response is not an HTTP response")
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// Maps URLSession's error codes onto the transport vocabulary.
    ///
    /// Refused means nothing reached the server; lost means it may have.
    public static func map(_ code: URLError.Code) -> TransportError {
        switch code {
        case .timedOut:
            return .timeout
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
             .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            return .connectionRefused
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource,
             .cannotDecodeRawData, .cannotDecodeContentData:
            return .connectionLost
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
             .clientCertificateRejected, .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
            return .tlsFailure("URLError code \(code.rawValue)")
        case .cancelled, .userCancelledAuthentication:
            return .cancelled
        case .badURL, .unsupportedURL:
            return .invalidRequest("the URL is not supported")
        default:
            return .failed("URLError code \(code.rawValue)")
        }
    }
}

/// Refuses every redirect so the response (a 3xx) reaches the client unchanged.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // No stored state; `@unchecked` only because NSObject subclasses cannot be checked.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
