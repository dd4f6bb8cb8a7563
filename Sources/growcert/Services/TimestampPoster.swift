import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one network step of `growcert anchor`: POST a DER timestamp query, get the answer's bytes.
///
/// A seam of its own, so the transport can be swapped (libcurl) without touching the RFC 3161 code.
protocol TimestampPoster: Sendable {
    /// POSTs `body` as `application/timestamp-query` to `url`; returns the HTTP status and body.
    func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8])
}

/// `TimestampPoster` over Foundation's URLSession.
struct URLSessionTimestampPoster: TimestampPoster {
    func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8]) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("application/timestamp-query", forHTTPHeaderField: "Content-Type")
        request.setValue("application/timestamp-reply", forHTTPHeaderField: "Accept")
        request.httpBody = Data(body)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, [UInt8](data))
    }
}
