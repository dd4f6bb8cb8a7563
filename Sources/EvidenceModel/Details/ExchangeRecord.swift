import RFC3339Time
import StrictJSON

/// One HTTP exchange of a check, as recorded (already redacted; bodies capped by the recorder).
package struct ExchangeRecord: Sendable, Equatable {
    /// The exchange's JSON keys.
    package enum Key: String, CaseIterable, Sendable {
        case method, path, status, sandboxKind, durationMs, idempotencyKey, requestBody, responseBody, error, peer, tls, spkiPin, date
        case host, certificateChain, link
    }

    /// The HTTP method.
    package var method: String?
    /// The path with its query, credentials redacted.
    package var path: String?
    /// The HTTP status as number text; nil when no response came.
    package var status: String?
    /// The vendor's kind header as received (`hosted`, `emulator`); nil when absent or when no response came.
    package var sandboxKind: String?
    /// As number text.
    package var durationMs: String?
    /// The request's `Idempotency-Key`, if it sent one.
    package var idempotencyKey: String?
    /// The request body, redacted and capped.
    package var requestBody: String?
    /// The response body, redacted and capped.
    package var responseBody: String?
    /// The transport failure (`timeout`, `connection-lost`, …) when no response came.
    package var error: String?
    /// The peer IP address connected to, measured after name resolution; nil when unknown.
    package var peer: String?
    /// Over HTTPS: `verified`, or `not verified: ` with OpenSSL's reason; nil over plain HTTP or when nothing was measured.
    package var tls: String?
    /// The SHA-256 of the leaf's public key in pin form (`sha256//BASE64`); nil over plain HTTP.
    package var spkiPin: String?
    /// The response's `Date` header as the server sent it (its clock); nil when absent, or in records made before it was kept.
    package var date: String?
    /// The host name the request asked for (the name its chain was verified for); nil in records made before it was kept.
    package var host: String?
    /// The server's certificate chain, leaf first, each certificate's DER in base64 (what `verify` re-validates); empty
    /// over plain HTTP, without an answer, or in records made before it was kept.
    package var certificateChain: [String]
    /// The link of the QA machine the peer was reached through (`veth1 (veth, this kernel)`); nil when unknown.
    package var link: String?

    /// An exchange record.
    package init(method: String, path: String, status: Int?, sandboxKind: String?, durationMs: Int, idempotencyKey: String?,
                requestBody: String?, responseBody: String?, error: String?, peer: String?, tls: String?, spkiPin: String?,
                date: String? = nil, host: String? = nil, certificateChain: [String] = [], link: String? = nil) {
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
        self.host = host
        self.certificateChain = certificateChain
        self.link = link
    }

    /// Reads a recorded exchange.
    package init(json: JSONValue) {
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
        host = text(.host)
        certificateChain = DetailValue.texts(json[Key.certificateChain.rawValue])
        link = text(.link)
    }

    /// The exchange as recorded.
    package var json: JSONValue {
        var fields: [String: JSONValue] = [
            Key.method.rawValue: .optional(method), Key.path.rawValue: .optional(path),
            Key.status.rawValue: status.map(JSONValue.number) ?? .null, Key.sandboxKind.rawValue: .optional(sandboxKind),
            Key.durationMs.rawValue: durationMs.map(JSONValue.number) ?? .null, Key.idempotencyKey.rawValue: .optional(idempotencyKey),
            Key.requestBody.rawValue: .optional(requestBody), Key.responseBody.rawValue: .optional(responseBody),
            Key.error.rawValue: .optional(error), Key.peer.rawValue: .optional(peer), Key.tls.rawValue: .optional(tls),
            Key.spkiPin.rawValue: .optional(spkiPin), Key.date.rawValue: .optional(date),
        ]
        // Kept only where measured, so that an exchange without them (plain HTTP, no answer) keeps its earlier bytes.
        if let host { fields[Key.host.rawValue] = .string(host) }
        if !certificateChain.isEmpty { fields[Key.certificateChain.rawValue] = DetailValue.strings(certificateChain) }
        if let link { fields[Key.link.rawValue] = .string(link) }
        return .object(fields)
    }

    /// The `Date` header in milliseconds since 1970 (whole seconds, as HTTP dates are); nil when absent or unreadable.
    package var dateMilliseconds: Int64? { date.flatMap(HTTPDate.seconds).map { $0 * 1000 } }

    /// `METHOD path → status` (or `→ error: …`), as a report's transcript excerpt shows it.
    package var line: String {
        "\(method ?? "?") \(path ?? "?") → \(status ?? error.map { "error: " + $0 } ?? "?")"
    }
}
