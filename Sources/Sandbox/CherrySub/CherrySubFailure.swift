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

/// CherrySub's answers, encoded as the client encodes (`CherryWire.encode`).
enum CherrySubReply {
    static func json(_ status: Int, _ value: some Encodable) -> Reply {
        guard let body = try? CherryWire.encode(value) else {
            return failure(CherrySubFailure(.unavailable, "The emulator could not encode its response."))
        }
        return Reply(status: status, body: body)
    }

    /// `{"error": {"code", "message", "retryable"}}`; `429` carries `Retry-After`.
    static func failure(_ failure: CherrySubFailure) -> Reply {
        let body = (try? CherryWire.encode(CherryErrorBody(code: failure.code, message: failure.message))) ?? Data()
        var reply = Reply(status: failure.status ?? failure.code.status, body: body)
        if failure.code == .rateLimited {
            reply.headers.append((CherryWire.Header.retryAfter, "1"))
        }
        return reply
    }

    /// `204`, no body.
    static let noContent = Reply(status: 204, body: Data())
}
