import Synchronization
import GrowClient
import HTTPCore

/// Keeps every exchange that reached the target, unredacted and in memory only.
///
/// Sits below the fault injector so a check can see what the server answered
/// to a request whose response the client never received (a lost response).
/// Never stored: the evidence transcript comes from `RecordingTransport`.
final class GrooveGrowCaptureTransport: HTTPTransport {
    struct Exchange: Sendable {
        let request: HTTPRequest
        let response: HTTPResponse?
    }

    private let base: any HTTPTransport
    // Guards the list of exchanges.
    private let exchanges = Mutex<[Exchange]>([])

    init(wrapping base: any HTTPTransport) { self.base = base }

    /// Exchanges whose request path ends with `path`, in completion order.
    func exchanges(path: String) -> [Exchange] {
        exchanges.withLock { $0 }.filter { $0.request.path.hasSuffix(path) }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            let response = try await base.send(request)
            exchanges.withLock { $0.append(Exchange(request: request, response: response)) }
            return response
        } catch {
            exchanges.withLock { $0.append(Exchange(request: request, response: nil)) }
            throw error
        }
    }
}
