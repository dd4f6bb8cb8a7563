import CherryClient
import Foundation

/// A CherrySub contract error raised while handling a request; it becomes the response.
struct CherrySubFailure: Error {
    var code: CherryErrorCode
    var message: String
    /// The status, when not the code's own (an injected fault's 500, 502 or 504).
    var status: Int?

    init(_ code: CherryErrorCode, _ message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// A malformed request, as the kit reported it.
    init(_ problem: RequestProblem) {
        self.init(.invalidRequest, problem.message)
    }
}

/// CherrySub's answers.
enum CherrySubReply {
    static func json(_ status: Int, _ value: some Encodable) -> Reply {
        Reply.encoded(status, value) ?? failure(CherrySubFailure(.unavailable, "The emulator could not encode its response."))
    }

    /// The contract's error body; `429 rate_limited` carries `Retry-After`.
    static func failure(_ failure: CherrySubFailure) -> Reply {
        Reply.error(failure.code, failure.message, status: failure.status ?? failure.code.status,
                    retryAfterHeader: failure.code == .rateLimited ? CherryWire.Header.retryAfter : nil)
    }

    /// `204`, no body.
    static let noContent = Reply(status: 204, body: Data())
}
