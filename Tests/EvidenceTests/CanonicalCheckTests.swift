import Foundation
import StrictJSON
import Testing
@testable import Evidence
@testable import EvidenceModel

/// `verify`'s in-place canonical check must accept exactly what "parse, then canonicalise, gives
/// the same text" accepts (and, for keys it leaves to the parser, never accept more).
@Suite("The in-place canonical check agrees with parsing")
struct CanonicalCheckTests {
    static let deep = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    static let deepest = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)

    static let texts: [String] = [
        #"{"a":1,"b":[true,false,null],"c":{"d":"x"}}"#, #"{"b":1,"a":2}"#, #"{"a":1, "b":2}"#, #" {"a":1}"#, #"{"a":1}x"#, "",
        #"{"a":"\/"}"#, #"{"a":"\u0041"}"#, #"{"a":"\u001F"}"#, #"{"a":"\u001f"}"#, #"{"a":"\u000a"}"#, #"{"a":"\n\r\t\b\f\"\\"}"#,
        #"{"a":"\u0008"}"#, "\u{FEFF}{}", #"{"a":1,"a":2}"#, #"{"é":1}"#, #"{"e\u0301":1,"é":2}"#, #"{"\u0061":1}"#, #"{"a\"":1,"a":2}"#,
        "[1,2]", #""str""#, "1.5e3", "-0", "01", "1.", "-", "1e", "1E+9", "[1,]", "{,}", #"{"a"}"#, #"{"a":}"#, "tru", "nul", "[]", "{}",
        #"{"":1,"a":2}"#, "{\"a\":\"x\u{7F}y\"}", #"{"a":"\ud83d\ude00"}"#, "{\"a\":\"😀 é \u{2028}\"}", "{\"a\":\"tab\there\"}",
        deep, deepest, "{\"e\u{301}\":1,\"é\":2}", #"{"id":"e1","details":{"z":1,"y":2}}"#, #"{"details":{"y":2,"z":1},"id":"e1"}"#, #"[{"b":1,"a":2}]"#,
        // Keys that share a prefix: the shorter sorts first.
        #"{"ab":1,"a":2}"#, #"{"a":1,"ab":2}"#, #"{"aa":1,"ab":2,"b":{"x":"é"}}"#, #"{"ab":1,"ab":2}"#,
    ]

    /// Texts with non-ASCII keys: the check leaves them to the parser (Unicode equivalence can make two keys one).
    static let leftToTheParser: Set<String> = [#"{"é":1}"#, "{\"e\u{301}\":1,\"é\":2}"]

    static func reference(_ bytes: [UInt8]) -> Bool {
        guard let value = try? JSONValue.parse(Data(bytes)) else { return false }
        return Array(value.canonicalText.utf8) == bytes
    }

    static func fast(_ bytes: [UInt8]) -> Bool {
        var check = CanonicalCheck()
        return bytes.withUnsafeBufferPointer { buffer in check.check(buffer) }
    }

    @Test("Every text is accepted exactly when parsing and canonicalising gives it back", arguments: texts)
    func agreesWithTheParser(text: String) {
        let bytes = Array(text.utf8)
        if Self.leftToTheParser.contains(text) {
            #expect(!Self.fast(bytes) || Self.reference(bytes))
        } else {
            #expect(Self.fast(bytes) == Self.reference(bytes))
        }
    }

    @Test("Invalid UTF-8 inside a string is not accepted", arguments: [
        [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xE2, 0x82, 0x22],
    ] as [[UInt8]])
    func invalidUTF8IsRefused(bytes: [UInt8]) {
        #expect(!Self.reference(bytes))
        #expect(!Self.fast(bytes))
    }

    @Test("The top-level fields are found in key order with their values, strings unescaped on demand")
    func fieldsAreFound() throws {
        let bytes = Array(#"{"a":null,"b":true,"c":"x\ny","d":[1],"e":{"f":2},"g":-1.5,"h":"plain"}"#.utf8)
        var check = CanonicalCheck()
        try bytes.withUnsafeBufferPointer { b in
            let accepted = check.check(b)
            #expect(accepted)
            let fields = check.fields
            #expect(fields.map { String(decoding: b[$0.key], as: UTF8.self) } == ["a", "b", "c", "d", "e", "g", "h"])
            #expect(fields.map { String(decoding: b[$0.value], as: UTF8.self) } == ["null", "true", #"x\ny"#, "[1]", #"{"f":2}"#, "-1.5", "plain"])
            #expect(fields.map(\.kind) == [.null, .bool(true), .string(escaped: true), .array, .object, .number, .string(escaped: false)])
            var out: [UInt8] = []
            CanonicalCheck.unescape(UnsafeBufferPointer(rebasing: b[try #require(fields.first { $0.kind == .string(escaped: true) }).value]), into: &out)
            #expect(out == Array("x\ny".utf8))
        }
    }

    @Test("A journal with non-ASCII actors, keys and text, escapes and numbers verifies, and an edit in it is still found")
    func unusualEntriesVerify() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            s.store.actor = "José Ñúñez"
            _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .receipt, provenance: .manual,
                                                    details: ["café": "crème\n\"brûlée\"\u{1}", "n": .number("-1.5e+3"), "list": [true, nil, ["k": "v"]]]))
            _ = try s.store.addEvidence(note("r1", "tab\tand \\ backslash"))
            #expect(try s.store.verify().ok)
            try rawExecuteBehindTriggers(s.path, tables: ["evidence"], "UPDATE evidence SET details = replace(details, 'crème', 'creme') WHERE id = 'e1'")
            #expect(try s.store.verify().problems.map(\.description) == [
                "entry 6: evidence row 'e1' column details differs from the journal (edited behind the tool's back)",
            ])
        }
    }
}
