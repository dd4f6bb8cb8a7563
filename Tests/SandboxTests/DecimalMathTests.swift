import GrowClient
import HTTPCore
import Testing
@testable import Sandbox

@Suite struct DecimalMathTests {
    @Test(arguments: [
        ("12.50", "10.5", "23.00"),
        ("0", "0.1", "0.1"),
        ("10.5", "-10.5", "0.0"),
        ("-10.5", "3", "-7.5"),
        ("3", "-10.25", "-7.25"),
        ("12345678901234567.89", "0.11", "12345678901234568.00"),
        ("99999999999999999999", "1", "100000000000000000000"),
    ])
    func addsExactlyOnDigitStrings(a: String, b: String, sum: String) throws {
        let x = try #require(ExactDecimal(a))
        let y = try #require(ExactDecimal(b))
        #expect(GrooveGrowDecimalMath.add(x, y).text == sum)
    }
}
