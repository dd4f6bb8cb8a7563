/// Writes a table as CSV for spreadsheets (RFC 4180).
///
/// Records end with CRLF, the last one too; a field holding a comma, a double
/// quote, CR or LF is quoted, with its quotes doubled; other fields are written
/// as they are. Hidden characters become visible first (`TextSafety.visible`,
/// which turns CR LF and a lone CR into LF), so a value cannot hide text from
/// the person reading the sheet. A field a spreadsheet would run as a formula
/// (one starting with `=`, `+`, `-`, `@` or a tab, other than a plain number)
/// starts with an apostrophe, so evidence text typed by anyone cannot run in
/// the reader's spreadsheet (CSV injection). The header row is the first record.
package enum CSVWriter {
    /// The CSV text of `header` followed by `rows`.
    package static func render(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map(record).joined()
    }

    /// One record: its fields, separated by commas, ended by CRLF.
    package static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field, quoted when RFC 4180 requires it.
    package static func field(_ value: String) -> String {
        var text = TextSafety.visible(value)
        if runsAsFormula(text) { text = "'" + text }
        let needsQuotes = text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return text }
        var out = "\""
        for c in text { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }

    /// Whether a spreadsheet would read `text` as a formula: it starts with `=`, `+`, `-`, `@` or a tab and is
    /// not a plain decimal number such as `-4.99`.
    static func runsAsFormula(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, "=+-@\t".unicodeScalars.contains(first) else { return false }
        let rest = text.unicodeScalars.dropFirst()
        let isNumber = first == "-" && !rest.isEmpty && rest.allSatisfy { ("0"..."9").contains($0) || $0 == "." }
            && rest.first != "." && rest.filter { $0 == "." }.count <= 1
        return !isNumber
    }
}
