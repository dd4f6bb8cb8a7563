import Foundation
import QRCode
import Testing

/// One reference symbol from `Fixtures/` (made once by segno, see `Fixtures/ORIGIN.md`): the input bytes, the
/// level, the version and mask segno chose, and its module rows (`1` dark, `0` light, no quiet zone).
struct FixtureCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let level: QRCode.ErrorCorrection
    let version: Int
    let mask: Int
    let rows: [String]

    var testDescription: String { name }

    private struct Entry: Decodable {
        let name: String
        let hex: String
        let level: String
        let version: Int
        let mask: Int
    }

    /// The number of cases `cases.json` lists; a test checks they all loaded, so a lost file cannot pass quietly.
    static let expectedCount = 112

    /// Every case of `Fixtures/cases.json`, or none when the fixtures cannot be read (a test then fails).
    static let all: [FixtureCase] = (try? load()) ?? []

    static func load() throws -> [FixtureCase] {
        guard let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        let data = try Data(contentsOf: directory.appendingPathComponent("cases.json"))
        return try JSONDecoder().decode([Entry].self, from: data).map { entry in
            let text = try String(contentsOf: directory.appendingPathComponent(entry.name + ".txt"), encoding: .utf8)
            return FixtureCase(
                name: entry.name,
                bytes: try bytes(hex: entry.hex),
                level: try level(entry.level),
                version: entry.version,
                mask: entry.mask,
                rows: text.split(separator: "\n").map(String.init)
            )
        }
    }

    private static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { throw CocoaError(.coderReadCorrupt) }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw CocoaError(.coderReadCorrupt)
            }
            return byte
        }
    }

    private static func level(_ letter: String) throws -> QRCode.ErrorCorrection {
        switch letter {
        case "L": .low
        case "M": .medium
        case "Q": .quartile
        case "H": .high
        default: throw CocoaError(.coderReadCorrupt)
        }
    }
}

extension QRCode {
    /// The module rows as the fixtures write them.
    var rows: [String] {
        (0..<size).map { y in String((0..<size).map { x in isDark(x: x, y: y) ? "1" : "0" }) }
    }
}
