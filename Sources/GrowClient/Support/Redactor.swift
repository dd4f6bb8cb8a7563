import Foundation
import SecretShapes

/// Removes credentials from text before it is recorded or shown.
///
/// Works on the raw text rather than re-serialising JSON, so everything
/// that is not a credential (amounts, big identifiers, key order) stays
/// byte-for-byte as the server sent it — a transcript is evidence.
public enum Redactor {
    /// What replaces a credential.
    public static let placeholder = "<redacted>"

    /// Header names whose values are always credentials.
    public static let credentialHeaders: Set<String> = [
        Wire.Header.authorization.lowercased(), Wire.Header.serverKey.lowercased(),
    ]

    /// JSON fields whose string values are always credentials.
    public static let credentialFields: [String] = ["customerToken", "serverKey"]

    /// Redacts `text`: the given literal secrets, then `customerToken` JSON
    /// fields, vendor secret keys (`SecretKeyShape.all`: `gg_sk_…`, `iap_sk_…`), `Bearer …` values and JWT-shaped strings.
    public static func redact(_ text: String, secrets: [String] = []) -> String {
        var out = text
        for secret in secrets where secret.count >= 4 {
            out = out.replacingOccurrences(of: secret, with: placeholder)
        }
        for field in credentialFields {
            out = redactJSONField(field, in: out)
        }
        out = SecretKeyShape.redact(out) { _ in placeholder }
        out = out.replacing(#/(?i)(bearer)\s+[^\s",;]+/#) { "\($0.output.1) \(placeholder)" }
        out = out.replacing(#/eyJ[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*/#, with: placeholder)
        out = out.replacing(#/[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}/#, with: placeholder)
        return out
    }

    /// The value to record for a header: `<redacted>` for credential headers, else the value redacted.
    public static func redactHeader(name: String, value: String, secrets: [String] = []) -> String {
        credentialHeaders.contains(name.lowercased()) ? placeholder : redact(value, secrets: secrets)
    }

    /// The credentials a request carries (bearer value, server key), for literal redaction elsewhere.
    public static func secrets(in headers: HTTPHeaders) -> [String] {
        var found: [String] = []
        for field in headers where credentialHeaders.contains(field.name.lowercased()) {
            let value = field.value.trimmingCharacters(in: .whitespaces)
            found.append(value)
            if value.lowercased().hasPrefix("bearer ") {
                found.append(String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces))
            }
        }
        return found.filter { !$0.isEmpty }
    }

    /// The text of a body for a transcript: redacted UTF-8, or a byte count for binary data.
    public static func redactBody(_ body: Data?, secrets: [String] = []) -> String? {
        guard let body, !body.isEmpty else { return nil }
        guard let text = String(data: body, encoding: .utf8) else {
            return "<\(body.count) bytes, not UTF-8>"
        }
        return redact(text, secrets: secrets)
    }

    private static func redactJSONField(_ field: String, in text: String) -> String {
        guard text.contains(field) else { return text }
        // "field" : "value with \" escapes"  →  "field" : "<redacted>"
        let pattern = "(\"\(NSRegularExpression.escapedPattern(for: field))\"\\s*:\\s*)\"(?:[^\"\\\\]|\\\\.)*\""
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return regex.stringByReplacingMatches(in: text, range: range, withTemplate: "$1\"\(placeholder)\"")
    }
}
