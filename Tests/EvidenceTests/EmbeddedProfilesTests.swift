import Foundation
import StrictJSON
import Testing

@testable import Evidence
@testable import EvidenceModel

@Suite struct EmbeddedProfilesTests {
    @Test func embeddedProfilesEqualTheFilesOnDisk() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("profiles")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".json") }
        #expect(Set(names) == Set(EmbeddedProfiles.files.keys), "add the file's line to EmbeddedProfiles.files")
        for name in names {
            let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            #expect(EmbeddedProfiles.files[name] == text, "profiles/\(name) differs from the embedded copy")
        }
    }

    @Test func groovegrowBoundsTheAgeOfAStoreTransactionToFourteenDays() throws {
        #expect(try Profile.named("groovegrow").rules.transactionMaxAgeDays == 14)
    }

    @Test func aProfileWithoutAMaximumTransactionAgeIsRefused() throws {
        let text = try #require(EmbeddedProfiles.files["groovegrow.json"])
        var json = try #require(try JSONValue.parse(text).objectValue)
        var rules = try #require(json["verdictRules"]?.objectValue)
        rules["transactionMaxAgeDays"] = nil
        json["verdictRules"] = .object(rules)
        #expect(throws: EvidenceError.invalidValue(field: "profile", value: "verdictRules.transactionMaxAgeDays",
                                                   why: "missing or not a whole number of days from 0 to 366")) {
            try Profile(json: .object(json))
        }
    }
}
