import EvidenceModel
import StrictJSON

/// Makes recorded text safe to show: invisible controls become visible, and
/// each format's special characters are escaped.
///
/// Evidence text comes from testers, servers and stores. Bidirectional
/// overrides (U+202A–U+202E, U+2066–U+2069, and the marks U+200E, U+200F,
/// U+061C) could make a report read differently from what it says, and
/// control characters could corrupt a file, so every format replaces them
/// with a visible `⟨U+XXXX⟩`.
package enum TextSafety {
    /// `text` with bidirectional controls, C0/C1 controls (except newline and tab), DEL and
    /// non-characters replaced by `⟨U+XXXX⟩`; CR LF and lone CR become LF.
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsReplacing) else { return text }
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                out.append("\n")
                previousCR = true
                continue
            }
            defer { previousCR = false }
            if scalar == "\n" {
                if !previousCR { out.append(scalar) }
                continue
            }
            if needsReplacing(scalar) {
                out.append(contentsOf: marker(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func needsReplacing(_ s: Unicode.Scalar) -> Bool {
        s != "\n" && s != "\t" && ControlCharacters.isHidden(s)
    }

    static func marker(_ s: Unicode.Scalar) -> String { ControlCharacters.marker(s) }

    /// For a terminal: every hidden character (`ControlCharacters`) as `⟨U+XXXX⟩` except newline
    /// and tab, which the text's own lines and tables use. A CR stays visible too (`⟨U+000D⟩`), so a
    /// value cannot return to the start of a line and overwrite what was printed before it.
    package static func terminal(_ text: String) -> String {
        guard ControlCharacters.contains(in: text, keepingNewlinesAndTabs: true) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsReplacing(scalar) { out.append(contentsOf: marker(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// For one value inside a line (a table cell, a quoted name): like `terminal`, and newlines
    /// and tabs as `⟨U+000A⟩` and `⟨U+0009⟩`, so a value cannot start a line of its own.
    package static func singleLine(_ text: String) -> String {
        guard ControlCharacters.contains(in: text, keepingNewlinesAndTabs: false) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if ControlCharacters.isHidden(scalar) { out.append(contentsOf: marker(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// For HTML element content and quoted attributes: `visible`, then `&` (first), `<`, `>`, `"`, `'`.
    package static func html(_ text: String) -> String {
        MustacheEscaping.html(visible(text))
    }

    /// For XML attribute values and text: like `html`, and newlines and tabs as character
    /// references so attribute values keep them.
    package static func xml(_ text: String) -> String {
        var out = ""
        for scalar in visible(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// For Markdown text and table cells, so a value cannot add structure.
    ///
    /// `visible`; `&`, `<`, `>` as HTML entities (many viewers render inline HTML);
    /// backslash before every character with Markdown meaning inline
    /// (`\` `` ` `` `*` `_` `[` `]` `|` `~` `$`); a line-starting `#`, `-`, `+`, `=`
    /// or `1.` escaped too; newlines as `<br>` and tabs as a space.
    package static func markdown(_ text: String) -> String {
        let scalars = Array(visible(text).unicodeScalars)
        var out = ""
        var atLineStart = true
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            defer { i += 1 }
            if s == "\n" {
                out += "<br>"
                atLineStart = true
                continue
            }
            if atLineStart {
                if s == " " { out += " "; continue }
                atLineStart = false
                // A block marker counts only when followed by a space, a tab or the end of the line.
                func endsMarker(_ k: Int) -> Bool { k >= scalars.count || scalars[k] == " " || scalars[k] == "\t" || scalars[k] == "\n" }
                var run = i
                while run < scalars.count, scalars[run] == s { run += 1 }
                if "#-+=".unicodeScalars.contains(s), endsMarker(s == "#" || s == "=" || s == "-" ? run : i + 1) {
                    out += "\\"
                    out.unicodeScalars.append(s)
                    continue
                }
                // An ordered-list start: digits then `.` or `)`, then a space.
                var j = i
                while j < scalars.count, ("0"..."9").contains(scalars[j]) { j += 1 }
                if j > i, j < scalars.count, scalars[j] == "." || scalars[j] == ")", endsMarker(j + 1) {
                    for k in i..<j { out.unicodeScalars.append(scalars[k]) }
                    out += "\\"
                    out.unicodeScalars.append(scalars[j])
                    i = j
                    continue
                }
            }
            switch s {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\t": out += " "
            case "\\", "`", "*", "_", "[", "]", "|", "~", "$": out += "\\"; out.unicodeScalars.append(s)
            default: out.unicodeScalars.append(s)
            }
        }
        return out
    }
}

extension JSONValue {
    /// A JSON report's string: `text` with its hidden characters made visible (`TextSafety.visible`).
    static func visible(_ text: String) -> JSONValue { .string(TextSafety.visible(text)) }
    /// `visible(text)`, or `null` when there is no text.
    static func visibleOrNull(_ text: String?) -> JSONValue { text.map(visible) ?? .null }
}
