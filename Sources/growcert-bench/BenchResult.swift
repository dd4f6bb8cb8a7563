import Evidence
import Foundation
import StrictJSON

/// One row of the results: growcert's figure, the baseline's, their ratio and the target.
struct BenchResult {
    var name: String
    var value: Double?
    var baseline: Double?
    var ratio: Double?
    var unit: String
    var target: String
    var met: Bool?
    /// Further figures (peak RSS, sizes, per-part times), written next to the main ones.
    var extra: [(String, Double)] = []
    var note: String?

    static func notRun(_ name: String, unit: String, target: String, why: String) -> BenchResult {
        BenchResult(name: name, value: nil, baseline: nil, ratio: nil, unit: unit, target: target, met: nil, note: "not run: \(why)")
    }

    static func format(_ v: Double?) -> String {
        guard let v else { return "-" }
        if v >= 1000 { return String(format: "%.0f", v) }
        if v >= 10 { return String(format: "%.1f", v) }
        return String(format: "%.3f", v)
    }

    /// The table printed on stdout.
    static func table(_ results: [BenchResult]) -> String {
        let header = ["name", "value", "baseline", "ratio", "unit", "target", "met"]
        var rows = [header]
        for r in results {
            rows.append([r.name, format(r.value), format(r.baseline), format(r.ratio), r.unit, r.target, r.met.map { $0 ? "yes" : "NO" } ?? "not run"])
        }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        var out = rows.map { row in row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") }.joined(separator: "\n") + "\n"
        for r in results {
            if !r.extra.isEmpty { out += "  \(r.name): " + r.extra.map { "\($0.0)=\(format($0.1))" }.joined(separator: " ") + "\n" }
            if let note = r.note { out += "  \(r.name): \(note)\n" }
        }
        return out
    }

    static func number(_ v: Double?) -> JSONValue {
        guard let v, v.isFinite else { return .null }
        return .number(String(format: "%.6g", v))
    }

    var json: JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(name), "value": Self.number(value), "baseline": Self.number(baseline), "ratio": Self.number(ratio),
            "unit": .string(unit), "target": .string(target), "met": met.map(JSONValue.bool) ?? .null,
        ]
        for (k, v) in extra { o[k] = Self.number(v) }
        if let note { o["note"] = .string(note) }
        return .object(o)
    }

    /// Writes the JSON file (an array of one object per benchmark, plus the machine).
    static func write(_ results: [BenchResult], machine: String, scale: String, to path: String) throws {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let doc: JSONValue = ["machine": .string(machine), "scale": .string(scale), "results": .array(results.map(\.json))]
        guard FileManager.default.createFile(atPath: path, contents: Data((doc.prettyText + "\n").utf8)) else {
            throw BenchError.failed("cannot write '\(path)'")
        }
    }
}

/// A one-line description of the machine the numbers come from.
enum Machine {
    static func describe() -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let mem = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("MemTotal") }?
            .split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { String(format: "%.0f GiB", $0 / 1_048_576) } ?? "?"
        var uts = utsname()
        uname(&uts)
        let kernel = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(mem) RAM, Linux \(kernel)"
    }
}
