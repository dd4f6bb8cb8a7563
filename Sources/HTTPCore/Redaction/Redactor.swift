import Foundation
import SecretShapes

/// Removes credentials from text before it is recorded or shown.
///
/// Works on the raw text rather than re-serialising JSON, so everything
/// that is not a credential (amounts, big identifiers, key order) stays
/// byte-for-byte as the server sent it — a transcript is evidence. Which
/// headers, JSON fields and key shapes are credentials is the vendor's to say
/// (its `SandboxDialect`); bearer values and JWT-shaped strings are removed whatever the vendor.
package struct Redactor: Sendable {
    /// What replaces a credential.
    package static let placeholder = "<redacted>"

    /// Header names (lowercased) whose values are always credentials.
    package let credentialHeaders: Set<String>
    /// JSON fields whose string values are always credentials.
    package let credentialFields: [String]
    /// The secret key shapes removed wherever they appear.
    package let secretShapes: [SecretKeyShape]

    /// A redactor for a vendor's credential headers (any case), JSON credential fields and key shapes.
    package init(credentialHeaders: [String], credentialFields: [String], secretShapes: [SecretKeyShape]) {
        self.credentialHeaders = Set(credentialHeaders.map { $0.lowercased() })
        self.credentialFields = credentialFields
        self.secretShapes = secretShapes
    }

    /// Redacts `text`: the given literal secrets, then the credential JSON
    /// fields, the secret key shapes, `Bearer …` values and JWT-shaped strings.
    package func redact(_ text: String, secrets: [String] = []) -> String {
        var out = text
        for secret in secrets where secret.count >= 4 {
            out = out.replacingOccurrences(of: secret, with: Self.placeholder)
        }
        for field in credentialFields {
            out = Self.redactJSONField(field, in: out)
        }
        out = SecretKeyShape.redact(out, shapes: secretShapes) { _ in Self.placeholder }
        out = out.replacing(#/(?i)(bearer)\s+[^\s",;]+/#) { "\($0.output.1) \(Self.placeholder)" }
        out = out.replacing(#/eyJ[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*/#, with: Self.placeholder)
        out = out.replacing(#/[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}/#, with: Self.placeholder)
        return out
    }

    /// The value to record for a header: `<redacted>` for credential headers, else the value redacted.
    package func redactHeader(name: String, value: String, secrets: [String] = []) -> String {
        credentialHeaders.contains(name.lowercased()) ? Self.placeholder : redact(value, secrets: secrets)
    }

    /// The credentials a request carries (bearer value, secret key headers), for literal redaction elsewhere.
    package func secrets(in headers: HTTPHeaders) -> [String] {
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
    package func redactBody(_ body: Data?, secrets: [String] = []) -> String? {
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
