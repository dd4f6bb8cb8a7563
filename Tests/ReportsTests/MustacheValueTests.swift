import Evidence

import StrictJSON
import Testing

@testable import Reports

@Suite struct MustacheValueTests {
    @Test func jsonValueConvertsCaseByCaseKeepingNumberText() throws {
        let json = try JSONValue.parse(
            #"{"s":"x","t":true,"f":false,"n":null,"i":12345678901234567890,"d":1.210,"a":[1,"b"],"o":{"k":[]}}"#)
        let value = MustacheValue(json: json)
        let expected: MustacheValue = .dictionary([
            "s": .string("x"), "t": .bool(true), "f": .bool(false), "n": .null,
            "i": .number("12345678901234567890"), "d": .number("1.210"),
            "a": .list([.number("1"), .string("b")]), "o": .dictionary(["k": .list([])]),
        ])
        #expect(value == expected)
    }

    @Test(arguments: [
        ("85", "85"), ("-7", "-7"), ("1.210", "1.21"), ("1.21", "1.21"), ("2.0", "2"), ("-0", "0"), ("-0.0", "0"),
        ("0.5", "0.5"), ("1e2", "100"), ("1.5e-3", "0.0015"), ("2.50E+1", "25"), ("-1.25e1", "-12.5"),
        ("12345678901234567890.10", "12345678901234567890.1"), ("1e300", "1e300"), ("abc", "abc"), ("1.", "1."),
        ("0.000", "0"), ("100", "100"),
    ])
    func numbersRenderInShortestDecimalFormWithoutLosingDigits(_ literal: String, _ rendered: String) {
        #expect(MustacheValue.number(literal).renderedText == rendered)
    }

    @Test func doublesAndIntsBuildNumbers() throws {
        #expect(MustacheValue(3) == .number("3"))
        #expect(MustacheValue(1.21).renderedText == "1.21")
        #expect(MustacheValue(2.0).renderedText == "2")
        let template = try MustacheTemplate(source: "{{power}} jiggawatts")
        #expect(try template.render(MustacheValue(json: ["power": .number("1.210")])) == "1.21 jiggawatts")
    }

    @Test func truthinessFollowsTheDocumentedRules() {
        let falsy: [MustacheValue] = [.null, false, "", []]
        let truthy: [MustacheValue] = [true, "x", 0, [0], [:], .number("0.0")]
        #expect(falsy.allSatisfy { !$0.isTruthy })
        #expect(truthy.allSatisfy { $0.isTruthy })
    }

    @Test func scalarsRenderAsText() {
        #expect(MustacheValue.bool(true).renderedText == "true")
        #expect(MustacheValue.bool(false).renderedText == "false")
        #expect(MustacheValue.string("a&b").renderedText == "a&b")
        #expect(MustacheValue.null.renderedText == "")
    }
}
