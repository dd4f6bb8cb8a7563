import Foundation
import StrictJSON
import Testing
@testable import Evidence
@testable import EvidenceModel

@Suite("JSONValue parsing and canonical text")
struct JSONValueTests {
    // MARK: Refused input

    @Test("Malformed or ambiguous JSON is refused", arguments: [
        (#"{"a":1,"a":2}"#, "duplicate key 'a'"),
        (#"{"outer":{"k":true,"k":false}}"#, "duplicate key 'k'"),
        ("01", "leading zero in number"),
        ("-01", "leading zero in number"),
        ("[00]", "leading zero in number"),
        (#"["\ud800"]"#, "lone surrogate in string"),
        (#""\udc00""#, "lone surrogate in string"),
        (#""\ud800\u0041""#, "invalid surrogate pair"),
        (#""\ud83d"#, "lone surrogate in string"),
        ("{} x", "unexpected data after the JSON value"),
        ("1 2", "unexpected data after the JSON value"),
        ("{}{}", "unexpected data after the JSON value"),
        ("[1,]", "unexpected character"),
        ("{\"a\":1,}", "expected a string key"),
        ("1.", "expected a digit after '.'"),
        (".5", "unexpected character"),
        ("+1", "unexpected character"),
        ("1e", "expected a digit in exponent"),
        ("-", "expected a digit"),
        ("", "unexpected end of input"),
        ("   ", "unexpected end of input"),
        ("\"a\tb\"", "unescaped control character in string"),
        (#""\x""#, "invalid escape"),
        (#""\u12g4""#, #"invalid hex digit in \u escape"#),
        ("\"abc", "unterminated string"),
        ("tru", "expected 'true'"),
        ("NaN", "unexpected character"),
        ("{'a':1}", "expected a string key"),
    ])
    func malformedJSONIsRefused(text: String, message: String) throws {
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(text.utf8)) }
        #expect(error?.message == message)
    }

    @Test("Invalid UTF-8 is refused before parsing", arguments: [
        [0x22, 0xFF, 0x22],              // a byte that never occurs in UTF-8
        [0x22, 0xC0, 0xAF, 0x22],        // overlong '/'
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // a UTF-16 surrogate encoded as UTF-8
        [0x22, 0xE2, 0x82, 0x22],        // truncated sequence
    ] as [[UInt8]])
    func invalidUTF8IsRefused(bytes: [UInt8]) throws {
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(bytes)) }
        #expect(error?.message == "text is not valid UTF-8")
        #expect(error?.offset == 0)
    }

    @Test("Nesting is accepted up to 128 levels and refused beyond")
    func nestingDepthIsBounded() throws {
        let ok = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: JSONValue.maximumDepth + 1) + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        #expect(error?.message == "nesting deeper than 128 levels")
        let deepObjects = String(repeating: #"{"a":"#, count: 200) + "1" + String(repeating: "}", count: 200)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deepObjects) }
        // Far deeper than the stack would allow: refused, not a crash.
        let veryDeep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(veryDeep) }
    }

    @Test("An error names the byte offset where the text went wrong")
    func errorsNameTheOffset() throws {
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":1,"a":2}"#) }
        #expect(error?.offset == 12)
        #expect(error?.description == "invalid JSON at byte 12: duplicate key 'a'")
    }

    // MARK: Numbers

    @Test("Numbers are kept as their literal text", arguments: [
        "12345678901234567.89", "9007199254740993", "1697679936049.7297", "-0", "0.10", "1E400", "-1.5e-10", "1.0",
        "123456789012345678901234567890",
    ])
    func numbersKeepTheirLiteralText(literal: String) throws {
        let value = try JSONValue.parse(#"{"n":\#(literal)}"#)
        #expect(value["n"] == .number(literal))
        #expect(value["n"]?.numberText == literal)
        #expect(value.canonicalText == #"{"n":\#(literal)}"#)
    }

    @Test("A large identifier survives a parse, canonicalise, parse round trip digit for digit")
    func largeIdentifiersRoundTrip() throws {
        let text = #"{"amount":"10.5","eventId":9007199254740993,"price":12345678901234567.89,"ts":1697679936049.7297}"#
        let once = try JSONValue.parse(text)
        #expect(once.canonicalText == text)
        let twice = try JSONValue.parse(once.canonicalText)
        #expect(twice == once)
        #expect(twice["eventId"]?.scalarText == "9007199254740993")
    }

    // MARK: Canonical text

    @Test("Canonical text sorts keys by their UTF-8 bytes, not UTF-16 or locale order")
    func canonicalKeyOrderIsUTF8ByteOrder() throws {
        // UTF-16 order would put U+10000 (D800 DC00) before U+FFFF; UTF-8 order puts it after.
        let value: JSONValue = ["z": 1, "a": 2, "Z": 3, "é": 4, "\u{FFFF}": 5, "\u{10000}": 6, "aa": 7, "": 8, "_": 9]
        #expect(value.canonicalText == "{\"\":8,\"Z\":3,\"_\":9,\"a\":2,\"aa\":7,\"z\":1,\"é\":4,\"\u{FFFF}\":5,\"\u{10000}\":6}")
        #expect(JSONValue.sortedKeys(value.objectValue ?? [:]) == ["", "Z", "_", "a", "aa", "z", "é", "\u{FFFF}", "\u{10000}"])
    }

    @Test("Canonical text has no white space and sorts nested objects too")
    func canonicalTextIsCompact() throws {
        let value = try JSONValue.parse("""
        {
          "b" : [ 1 , { "y" : null , "x" : true } ],
          "a" : { "d" : false , "c" : "s" }
        }
        """)
        #expect(value.canonicalText == #"{"a":{"c":"s","d":false},"b":[1,{"x":true,"y":null}]}"#)
    }

    @Test("Canonical text uses minimal escapes")
    func canonicalEscapesAreMinimal() throws {
        let value = JSONValue.string("q\" b\\ s/ n\n r\r t\t b\u{08} f\u{0C} nul\u{0} us\u{1F} del\u{7F} ls\u{2028} é 😀 \u{202E}")
        #expect(value.canonicalText == "\"q\\\" b\\\\ s/ n\\n r\\r t\\t b\\b f\\f nul\\u0000 us\\u001f del\u{7F} ls\u{2028} é 😀 \u{202E}\"")
    }

    @Test("Escapes decode to the characters they name")
    func escapesDecode() throws {
        let value = try JSONValue.parse(#"["\"\\\/\b\f\n\r\t", "\u00e9\u0000", "\ud83d\ude00", "\u00C9"]"#)
        #expect(value == .array([.string("\"\\/\u{08}\u{0C}\n\r\t"), .string("é\u{0}"), .string("😀"), .string("É")]))
    }

    @Test("Parse and canonicalise round-trip a document of every kind of value")
    func everyKindRoundTrips() throws {
        let text = "\u{FEFF}" + #" {"arr":[],"obj":{},"t":true,"f":false,"n":null,"s":"x\u0001y","num":-0.5e+3,"nested":[[[{"k":"v"}]]]} "#
        let value = try JSONValue.parse(Data(text.utf8))
        #expect(value["s"] == .string("x\u{1}y"))
        #expect(value["num"] == .number("-0.5e+3"))
        let canonical = value.canonicalText
        #expect(canonical == #"{"arr":[],"f":false,"n":null,"nested":[[[{"k":"v"}]]],"num":-0.5e+3,"obj":{},"s":"x\u0001y","t":true}"#)
        #expect(try JSONValue.parse(canonical) == value)
        #expect(try JSONValue.parse(canonical).canonicalText == canonical)
        #expect(try JSONValue.parse(value.prettyText) == value)
    }

    @Test("Pretty text is deterministic: sorted keys, two-space indent")
    func prettyTextIsDeterministic() throws {
        let value: JSONValue = ["b": [1, 2], "a": ["c": nil], "e": [], "d": [:]]
        #expect(value.prettyText == """
        {
          "a": {
            "c": null
          },
          "b": [
            1,
            2
          ],
          "d": {},
          "e": []
        }
        """)
    }
}
