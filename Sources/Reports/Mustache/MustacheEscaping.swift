/// Escaping functions for `{{name}}` tags.
///
/// `MustacheTemplate.render(_:escape:)` takes any `(String) -> String`; these
/// are the common ones. Triple mustaches `{{{name}}}` and `{{&name}}` are never
/// escaped.
package enum MustacheEscaping {
    /// HTML escaping: `&` first, then `<`, `>`, `"` and `'`.
    ///
    /// Safe for element content and for quoted attribute values.
    package static func html(_ text: String) -> String {
        // Fast path: most values need no escaping.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// No escaping: the value is inserted as it is.
    package static func none(_ text: String) -> String { text }
}
