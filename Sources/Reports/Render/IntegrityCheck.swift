import EvidenceModel
import StrictJSON

/// The body hash of a Markdown or HTML report: how it is embedded and how it is checked.
///
/// A report's body is every byte before the line `<!-- growcert-integrity -->`.
/// After that line the report states the body's SHA-256 in a comment
/// `<!-- growcert-body-sha256: HEX -->` (and again in words). Anyone can
/// recompute it: `awk '/<!-- growcert-integrity -->/{exit} {print}' report.md | sha256sum`.
package enum IntegrityCheck {
    /// The marker line (without its line break).
    package static let marker = "<!-- growcert-integrity -->"
    /// What precedes the hash in the machine-readable comment after the marker.
    package static let claimPrefix = "<!-- growcert-body-sha256: "

    /// What precedes the rules' SHA-256 and the database's identity in their comments after the marker.
    package static let rulesPrefix = "<!-- growcert-rules-sha256: "
    /// What precedes the database's identity (`EvidenceStore.databaseId`) in its comment after the marker.
    package static let databasePrefix = "<!-- growcert-database: "

    /// The SHA-256 of the rules that judged a report, as the file states it: the comment after the marker
    /// in Markdown or HTML, `header.rulesSha256` in JSON, the `rulesSha256` property in JUnit. Nil when it names none.
    package static func rulesSHA256(ofReport bytes: [UInt8]) -> String? {
        stated(in: bytes, comment: rulesPrefix, jsonKey: "rulesSha256", property: "rulesSha256")
    }

    /// The identity of the database a report comes from (`EvidenceStore.databaseId`), as the file states it.
    package static func databaseId(ofReport bytes: [UInt8]) -> String? {
        stated(in: bytes, comment: databasePrefix, jsonKey: "databaseId", property: "databaseId")
    }

    /// A 64-hex-digit value a report states in a comment after the marker, a JSON header key, or a JUnit property.
    static func stated(in bytes: [UInt8], comment: String, jsonKey: String, property: String) -> String? {
        func hex(_ text: Substring) -> String? {
            let value = text.prefix(64)
            guard value.count == 64, value.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
            return value.lowercased()
        }
        if let start = markerLineStart(bytes) {
            let tail = String(decoding: bytes[start...], as: UTF8.self)
            return tail.range(of: comment).flatMap { hex(tail[$0.upperBound...]) }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let json = try? JSONValue.parse(text) {
            return json["header"]?[jsonKey]?.stringValue.flatMap { hex(Substring($0)) }
        }
        return text.range(of: "<property name=\"\(property)\" value=\"").flatMap { hex(text[$0.upperBound...]) }
    }

    /// The text templates render where the hash goes; replaced after the body is hashed.
    static let placeholder = String(String(repeating: "PENDINGBODYSHA256", count: 4).prefix(64))

    /// The body hash a report claims (nil when it has no marker line or no claim after it),
    /// and the actual SHA-256 of its body (of all its bytes when it has no marker line).
    package static func bodySHA256(ofReport bytes: [UInt8]) -> (claimed: String?, actual: String) {
        guard let start = markerLineStart(bytes) else { return (nil, Digest.sha256Hex(bytes)) }
        let actual = Digest.sha256Hex(bytes[..<start])
        let tail = String(decoding: bytes[start...], as: UTF8.self)
        guard let range = tail.range(of: claimPrefix) else { return (nil, actual) }
        let hex = tail[range.upperBound...].prefix(64)
        guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) else { return (nil, actual) }
        return (hex.lowercased(), actual)
    }

    /// The journal heads a report file states: in a Markdown or HTML report, every 64-hex-digit word
    /// after the integrity marker line except the body hash; in a JSON report `journalHead.hash`; in a
    /// JUnit report the `journalHead` property. Empty when the file names none.
    package static func journalHeads(ofReport bytes: [UInt8]) -> [String] {
        func hexWords(_ text: Substring) -> [String] {
            var out: [String] = []
            var run = ""
            for c in text + " " {
                if c.isHexDigit, c.isASCII { run.append(c); continue }
                if run.count == 64 { out.append(run.lowercased()) }
                run = ""
            }
            return out
        }
        var heads: [String] = []
        if let start = markerLineStart(bytes) {
            let body = bodySHA256(ofReport: bytes)
            let tail = String(decoding: bytes[start...], as: UTF8.self)
            let named = [rulesSHA256(ofReport: bytes), databaseId(ofReport: bytes)].compactMap { $0 }
            heads = hexWords(Substring(tail)).filter { $0 != body.actual && $0 != body.claimed && !named.contains($0) }
        } else if let json = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self)), let hash = json["journalHead"]?["hash"]?.stringValue {
            heads = [hash]
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            if let r = text.range(of: "<property name=\"journalHead\" value=\"") {
                heads = hexWords(text[r.upperBound...].prefix(65))
            }
        }
        var seen: Set<String> = []
        return heads.map { $0.lowercased() }.filter { $0.count == 64 && $0.allSatisfy { $0.isHexDigit && $0.isASCII } && seen.insert($0).inserted }
    }

    /// The offset of the first line that is exactly the marker (optionally ending CR LF).
    static func markerLineStart(_ bytes: [UInt8]) -> Int? {
        let m = Array(marker.utf8)
        var lineStart = 0
        while lineStart <= bytes.count {
            var end = lineStart
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var contentEnd = end
            if contentEnd > lineStart, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            if contentEnd - lineStart == m.count, bytes[lineStart..<contentEnd].elementsEqual(m) { return lineStart }
            if end >= bytes.count { return nil }
            lineStart = end + 1
        }
        return nil
    }

    /// Replaces the placeholder after the marker line with the body's SHA-256.
    static func seal(_ text: String, file: String) throws -> [UInt8] {
        let bytes = Array(text.utf8)
        guard let start = markerLineStart(bytes) else {
            throw ReportError.integrity(file: file, why: "has no line '\(marker)'")
        }
        let p = Array(placeholder.utf8)
        if contains(bytes[..<start], p) {
            throw ReportError.integrity(file: file, why: "puts the body hash before the integrity marker line, where it cannot be known")
        }
        let hash = Array(Digest.sha256Hex(bytes[..<start]).utf8)
        var out = Array(bytes[..<start])
        var i = start
        var replaced = false
        while i < bytes.count {
            if i + p.count <= bytes.count, bytes[i..<(i + p.count)].elementsEqual(p) {
                out += hash
                i += p.count
                replaced = true
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        if !replaced { throw ReportError.integrity(file: file, why: "does not state the body hash after the integrity marker line") }
        return out
    }

    private static func contains(_ hay: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard hay.count >= needle.count else { return false }
        var i = hay.startIndex
        while i + needle.count <= hay.endIndex {
            if hay[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
