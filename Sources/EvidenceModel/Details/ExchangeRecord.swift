import RFC3339Time
import StrictJSON

/// One HTTP exchange of a check, as recorded (already redacted; bodies capped by the recorder).
public struct ExchangeRecord: Sendable, Equatable {
    /// The exchange's JSON keys.
    public enum Key: String, CaseIterable, Sendable {
        case method, path, status, sandboxKind, durationMs, idempotencyKey, requestBody, responseBody, error, peer, tls, spkiPin, date
    }

    public var method: String?
    public var path: String?
    /// The HTTP status as number text; nil when no response came.
    public var status: String?
    public var sandboxKind: String?
    /// As number text.
    public var durationMs: String?
    public var idempotencyKey: String?
    public var requestBody: String?
    public var responseBody: String?
    public var error: String?
    public var peer: String?
    public var tls: String?
    public var spkiPin: String?
    /// The response's `Date` header as the server sent it (its clock); nil when absent, or in records made before it was kept.
    public var date: String?

    /// An exchange record.
    public init(method: String, path: String, status: Int?, sandboxKind: String?, durationMs: Int, idempotencyKey: String?,
                requestBody: String?, responseBody: String?, error: String?, peer: String?, tls: String?, spkiPin: String?,
                date: String? = nil) {
        self.method = method
        self.path = path
        self.status = status.map { String($0) }
        self.sandboxKind = sandboxKind
        self.durationMs = String(durationMs)
        self.idempotencyKey = idempotencyKey
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.error = error
        self.peer = peer
        self.tls = tls
        self.spkiPin = spkiPin
        self.date = date
    }

    /// Reads a recorded exchange.
    public init(json: JSONValue) {
        func text(_ k: Key) -> String? { json[k.rawValue]?.scalarText }
        method = text(.method)
        path = text(.path)
        status = text(.status)
        sandboxKind = text(.sandboxKind)
        durationMs = text(.durationMs)
        idempotencyKey = text(.idempotencyKey)
        requestBody = text(.requestBody)
        responseBody = text(.responseBody)
        error = text(.error)
        peer = text(.peer)
        tls = text(.tls)
        spkiPin = text(.spkiPin)
        date = text(.date)
    }

    /// The exchange as recorded.
    public var json: JSONValue {
        .object([
            Key.method.rawValue: .optional(method), Key.path.rawValue: .optional(path),
            Key.status.rawValue: status.map(JSONValue.number) ?? .null, Key.sandboxKind.rawValue: .optional(sandboxKind),
            Key.durationMs.rawValue: durationMs.map(JSONValue.number) ?? .null, Key.idempotencyKey.rawValue: .optional(idempotencyKey),
            Key.requestBody.rawValue: .optional(requestBody), Key.responseBody.rawValue: .optional(responseBody),
            Key.error.rawValue: .optional(error), Key.peer.rawValue: .optional(peer), Key.tls.rawValue: .optional(tls),
            Key.spkiPin.rawValue: .optional(spkiPin), Key.date.rawValue: .optional(date),
        ])
    }

    /// The `Date` header in milliseconds since 1970 (whole seconds, as HTTP dates are); nil when absent or unreadable.
    public var dateMilliseconds: Int64? { date.flatMap(HTTPDate.seconds).map { $0 * 1000 } }

    /// `METHOD path → status` (or `→ error: …`), as a report's transcript excerpt shows it.
    public var line: String {
        "\(method ?? "?") \(path ?? "?") → \(status ?? error.map { "error: " + $0 } ?? "?")"
    }
}
