/// The one rule for characters that must never reach a reader unescaped.
///
/// C0 controls (including CR, LF and TAB: callers decide which of those their format keeps),
/// DEL, C1 controls (including the 8-bit CSI, U+009B), the bidirectional embeddings, overrides
/// and isolates (U+202A–U+202E, U+2066–U+2069), the marks U+200E, U+200F and U+061C, and the
/// non-characters U+FFFE and U+FFFF. Evidence text comes from testers, servers and stores: such
/// a character could rewrite a terminal line (`\r`, `ESC [2K`) or make text read in another
/// order than it is stored. Reports (`TextSafety`), the console and the pretty JSON writer all
/// ask this rule.
package enum ControlCharacters {
    /// Whether `scalar` is a control, a bidirectional control or a non-character.
    @inline(__always)
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C || v == 0xFFFE || v == 0xFFFF
    }

    /// Whether any scalar of `text` is hidden; cheap for ASCII text.
    package static func contains(in text: String, keepingNewlinesAndTabs: Bool) -> Bool {
        // Every hidden scalar has a UTF-8 byte below 0x20, DEL, or a lead byte 0xC2 (C1), 0xD8 (U+061C),
        // 0xE2 (U+200E… U+206x) or 0xEF (U+FFFx); anything else settles it without decoding.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0xEF }) else { return false }
        return text.unicodeScalars.contains { isHidden($0) && !(keepingNewlinesAndTabs && ($0 == "\n" || $0 == "\t")) }
    }

    /// The visible stand-in for a hidden scalar: `⟨U+XXXX⟩`.
    package static func marker(_ scalar: Unicode.Scalar) -> String {
        "⟨U+" + hex4(scalar.value) + "⟩"
    }

    /// Four (or more) uppercase hexadecimal digits.
    package static func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
