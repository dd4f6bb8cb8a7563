import Foundation
import HTTPCore

/// Maps a non-2xx response to `GrowClientError` following the contract's status/code table.
///
/// The status decides the family; the code refines it. A known code under
/// the wrong status is a contract violation (`invalidResponse`); a missing
/// or unknown code falls back to what the status means.
enum GrowResponseErrorMapper {
    static func error(for response: HTTPResponse, secrets: [String]) -> GrowClientError {
        let detail = ErrorEnvelope(body: response.body)
        let rawCode = detail?.code
        let code = rawCode.flatMap(GrowWireErrorCode.init(rawValue:))
        let message = GrowWire.redactor.redact(String((detail?.message ?? "").prefix(500)), secrets: secrets)
        let status = response.status

        // 429 and 5xx are retryable whatever code they carry; elsewhere the code must fit the status.
        let retryableStatus = status == 429 || (500...599).contains(status)
        if let code, !retryableStatus, code.status != status {
            return .invalidResponse("status \(status) came with error code '\(code.rawValue)', which the contract pairs with \(code.status).")
        }
        switch status {
        case 400:
            return .invalidRequest(message: message)
        case 401:
            switch code {
            case .tokenInvalid: return .unauthorized(code: .tokenInvalid)
            case .tokenExpired: return .unauthorized(code: .tokenExpired)
            case .serverKeyInvalid: return .unauthorized(code: .serverKeyInvalid)
            default: return .unauthorized(code: .unspecified)
            }
        case 403:
            return code == .scopeMismatch ? .scopeMismatch : .forbidden
        case 404:
            return .notFound
        case 409:
            return .conflict
        case 429:
            return .retryable(reason: .rateLimited(retryAfter: RetryAfter.seconds(response.headers[GrowWire.Header.retryAfter])))
        case 500...599:
            return .retryable(reason: .server(status: status))
        default:
            let shown = rawCode.map { " (code '\(GrowWire.redactor.redact(String($0.prefix(64)), secrets: secrets))')" } ?? ""
            return .invalidResponse("unexpected status \(status)\(shown).")
        }
    }
}
