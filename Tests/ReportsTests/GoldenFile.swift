import Foundation
import Testing

/// Compares text with a golden file in `__Snapshots__`, recording it when `GROWCERT_RECORD=1`.
///
/// Line endings are normalised before comparing. A mismatch prints a line diff.
/// A run that records a file fails, so a recording is never mistaken for a pass.
enum GoldenFile {
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    }

    static func assertMatches(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name)
        let normalisedActual = normalise(actual)
        if ProcessInfo.processInfo.environment["GROWCERT_RECORD"] == "1" {
            do {
                try normalisedActual.write(to: url, atomically: true, encoding: .utf8)
                Issue.record("Recorded golden file \(name). Run again without GROWCERT_RECORD=1 to compare.", sourceLocation: sourceLocation)
            } catch {
                Issue.record("Could not write golden file \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = try? Data(contentsOf: url), let expectedText = String(data: data, encoding: .utf8) else {
            Issue.record("Golden file \(name) is missing. Record it with GROWCERT_RECORD=1 swift test --filter ReportsTests.", sourceLocation: sourceLocation)
            return
        }
        let expected = normalise(expectedText)
        if expected != normalisedActual {
            Issue.record("\(name) differs from the golden file:\n\(lineDiff(expected: expected, actual: normalisedActual))", sourceLocation: sourceLocation)
        }
    }

    static func normalise(_ s: String) -> String {
        s.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// The differing lines, `-` expected and `+` actual, with line numbers; at most 40.
    static func lineDiff(expected: String, actual: String) -> String {
        let e = expected.components(separatedBy: "\n"), a = actual.components(separatedBy: "\n")
        var out: [String] = []
        for i in 0..<max(e.count, a.count) where out.count < 40 {
            let el = i < e.count ? e[i] : nil, al = i < a.count ? a[i] : nil
            if el != al {
                if let el { out.append("\(i + 1) - \(el)") }
                if let al { out.append("\(i + 1) + \(al)") }
            }
        }
        return out.joined(separator: "\n")
    }
}
