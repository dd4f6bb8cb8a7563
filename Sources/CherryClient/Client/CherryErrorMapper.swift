import HTTPCore

/// Maps a non-2xx response to `CherryClientError` following the contract's status/code table.
///
/// A known code under a status the contract does not pair it with is a contract
/// violation (`invalidResponse`), except that `429` and `5xx` are retryable whatever
/// code they carry; a missing or unknown code keeps what the status means.
enum CherryErrorMapper {
    static func error(for response: HTTPResponse, secrets: [String]) -> CherryClientError {
        let redactor = CherryWire.redactor
        let envelope = ErrorEnvelope(body: response.body)
        let rawCode = envelope?.code.map { redactor.redact(String($0.prefix(64)), secrets: secrets) }
        let code = envelope?.code.flatMap(CherryErrorCode.init(rawValue:))
        let message = redactor.redact(String((envelope?.message ?? "").prefix(500)), secrets: secrets)
        let status = response.status
        let retryable = status == 429 || (500...599).contains(status)
        if let code, !retryable, !code.statuses.contains(status) {
            return .invalidResponse("status \(status) came with error code '\(code.rawValue)', which the contract pairs with \(code.status).")
        }
        let retryAfter = status == 429 ? RetryAfter.seconds(response.headers[CherryWire.Header.retryAfter]) : nil
        return .api(CherryAPIError(status: status, code: code, rawCode: rawCode, message: message,
                                   retryable: retryable, retryAfterSeconds: retryAfter))
    }
}
