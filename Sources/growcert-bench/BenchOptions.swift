import Foundation

/// The command line of `growcert-bench`.
struct BenchOptions {
    var growcert: String
    var out: String
    /// 1 for the full sizes, 10 for `BENCH_SCALE=small`.
    var divisor: Int
    var only: Set<String>
    var keep: Bool

    var scale: String { divisor == 1 ? "full" : "small" }

    /// `size` at this scale.
    func n(_ size: Int) -> Int { max(1, size / divisor) }

    static let usage = "usage: growcert-bench --growcert PATH [--out bench/results.json] [--only NAME,NAME] [--keep]   (BENCH_SCALE=small for a quick run)"

    static func parse(_ args: [String], environment: [String: String]) throws -> BenchOptions {
        var growcert: String?
        var out = "bench/results.json"
        var only: Set<String> = []
        var keep = false
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            switch a {
            case "--keep": keep = true
            case "--growcert", "--out", "--only":
                guard i < args.count else { throw BenchError.usage("\(a) needs a value. \(usage)") }
                let v = args[i]
                i += 1
                if a == "--growcert" { growcert = v } else if a == "--out" { out = v } else { only = Set(v.split(separator: ",").map(String.init)) }
            default: throw BenchError.usage("unknown argument '\(a)'. \(usage)")
            }
        }
        guard let growcert, FileManager.default.isExecutableFile(atPath: growcert) else {
            throw BenchError.usage("--growcert must name the built growcert binary. \(usage)")
        }
        let scale = environment["BENCH_SCALE"] ?? "full"
        guard scale == "full" || scale == "small" else { throw BenchError.usage("BENCH_SCALE is 'small' or unset, not '\(scale)'.") }
        return BenchOptions(growcert: growcert, out: out, divisor: scale == "small" ? 10 : 1, only: only, keep: keep)
    }
}

/// Why the bench could not run.
enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case .usage(let m), .failed(let m): return m
        }
    }
}

/// What every benchmark gets: the options, a scratch directory, and a log on stderr.
final class BenchContext {
    let options: BenchOptions
    let work: URL

    init(options: BenchOptions, work: URL) {
        self.options = options
        self.work = work
    }

    /// A fresh path in the scratch directory.
    func path(_ name: String) -> String { work.appendingPathComponent(name).path }

    func log(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
