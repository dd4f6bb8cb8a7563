import Foundation
import GrowClient

/// A GrooveGrow contract error raised while handling a request; it becomes the response.
struct APIFailure: Error {
    var code: WireErrorCode
    var message: String

    init(_ code: WireErrorCode, _ message: String) {
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
        encoded(status, value) ?? failure(APIFailure(.unavailable, "The emulator could not encode its response."))
    }

    static func failure(_ failure: APIFailure, status: Int? = nil) -> Reply {
        error(failure.code, failure.message, status: status ?? failure.code.status,
              retryAfterHeader: failure.code.retryable ? Wire.Header.retryAfter : nil)
    }
}
