import Foundation
import GrowClient

/// A backend answer before the common headers are added.
struct Reply {
    var status: Int
    var body: Data
    var headers: [(name: String, value: String)] = []

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ status: Int, _ value: some Encodable) -> Reply {
        guard let body = try? encoder.encode(value) else {
            return failure(APIFailure(.unavailable, "The emulator could not encode its response."))
        }
        return Reply(status: status, body: body)
    }

    static func failure(_ failure: APIFailure, status: Int? = nil) -> Reply {
        let body = (try? encoder.encode(WireErrorBody(code: failure.code, message: failure.message))) ?? Data()
        var reply = Reply(status: status ?? failure.code.status, body: body)
        if failure.code.retryable {
            reply.headers.append((Wire.Header.retryAfter, "1"))
        }
        return reply
    }
}

/// A contract error raised while handling a request; it becomes the response.
struct APIFailure: Error {
    var code: WireErrorCode
    var message: String

    init(_ code: WireErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
