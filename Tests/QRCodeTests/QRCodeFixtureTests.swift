import QRCode
import Testing

/// The encoder against an independent one: each symbol must equal segno's module for module, mask included.
@Suite struct QRCodeFixtureTests {
    @Test func everyFixtureLoads() throws {
        #expect(try FixtureCase.load().count == FixtureCase.expectedCount)
    }

    @Test(arguments: FixtureCase.all)
    func symbolEqualsTheReferenceEncoders(_ fixture: FixtureCase) throws {
        let code = try QRCode(encoding: fixture.bytes, errorCorrection: fixture.level)
        #expect(code.version == fixture.version)
        #expect(code.size == 17 + 4 * fixture.version)
        #expect(code.mask == fixture.mask)
        #expect(code.errorCorrection == fixture.level)
        let rows = code.rows
        #expect(rows.count == fixture.rows.count)
        let differing = zip(rows, fixture.rows).enumerated().filter { $0.element.0 != $0.element.1 }
        if let first = differing.first {
            Issue.record("\(differing.count) rows differ; row \(first.offset) is \(first.element.0), not \(first.element.1)")
        }
    }

    @Test func fixturesCoverEveryVersionAndLevel() {
        for level in QRCode.ErrorCorrection.allCases {
            let versions = Set(FixtureCase.all.filter { $0.level == level }.map(\.version))
            #expect(versions == Set(1...10), "level \(level)")
        }
        #expect(Set(FixtureCase.all.map(\.mask)) == Set(0..<8))
    }
}
