import Testing

@testable import StoreProof

@Suite struct StoreTimestampTests {
    @Test(arguments: [
        ("0", "1970-01-01T00:00:00.000Z"),
        ("1697679936049.7297", "2023-10-19T01:45:36.0497297Z"),
        ("951782400000", "2000-02-29T00:00:00.000Z"),
        ("4102444799999", "2099-12-31T23:59:59.999Z"),
        ("1718000000123", "2024-06-10T06:13:20.123Z"),
    ])
    func millisecondsRenderAsExactRFC3339(text: String, expected: String) throws {
        let timestamp = try #require(StoreTimestamp(millisecondsText: text))
        #expect(timestamp.rfc3339 == expected)
        #expect(timestamp.millisecondsText == text)
    }

    @Test(arguments: ["", "-1", "1e12", "01", "1.", ".5", "12a", "1234567890123456", "1.2.3", " 1"])
    func anythingButPlainDecimalMillisecondsIsRefused(text: String) {
        #expect(StoreTimestamp(millisecondsText: text) == nil)
    }

    @Test func epochSecondsRoundDown() throws {
        #expect(try #require(StoreTimestamp(millisecondsText: "1697679936999.9")).epochSeconds == 1_697_679_936)
    }
}
