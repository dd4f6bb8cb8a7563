import Foundation
import GrowClient

/// A GrooveGrow contract error raised while handling a request; it becomes the response.
struct GrooveGrowFailure: Error {
    var code: GrowWireErrorCode
    var message: String

    init(_ code: GrowWireErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A malformed request, as the kit reported it.
    init(_ problem: RequestProblem) {
        self.init(.invalidRequest, problem.message)
    }
}

// GrooveGrow's answers: its error body and its Retry-After on retryable errors.
extension Reply {
    static func json(_ status: Int, _ value: some Encodable) -> Reply {
        encoded(status, value) ?? failure(GrooveGrowFailure(.unavailable, "The emulator could not encode its response."))
    }

    static func failure(_ failure: GrooveGrowFailure, status: Int? = nil) -> Reply {
        error(failure.code, failure.message, status: status ?? failure.code.status,
              retryAfterHeader: failure.code.retryable ? GrowWire.Header.retryAfter : nil)
    }
}
