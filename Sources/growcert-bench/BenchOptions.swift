import ArgumentsKit
import Evidence
import Foundation

/// The command line of `growcert-bench`, declared in the parser `growcert` uses (`ArgumentsKit`).
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

    static let defaultOut = "bench/results.json"

    /// The bench's one command: its options, its `--help`, and the run.
    static let command = Command<BenchOptions>(
        path: [], summary: "time growcert against its baselines on this machine, and write the results",
        options: Arguments.self,
        discussion: "BENCH_SCALE=small shrinks every size tenfold, for a quick run. See docs/performance.md.",
        run: { options, _ in try await Bench.run(options) })

    /// The bench's options, declared once: `command`'s options and what `parse` reads.
    struct Arguments: OptionGroup {
        let growcert = Option.requiredString("--growcert", "PATH", help: "the built growcert binary to time")
        let out = Option.string("--out", "FILE", help: "where the results go as JSON (default \(defaultOut))")
        let only = Option.string("--only", "NAME,NAME", help: "run only these benchmarks: " + Benchmarks.names.joined(separator: ", "))
        let keep = Option.flag("--keep", help: "keep the scratch folder")
        let help = Option.flag("--help", help: "this help (also -h)")
    }

    static let table = CommandTable(program: "growcert-bench", commands: [command], suggest: Suggestion.sentence)

    /// What a call asks for: the help text, or a run with these options.
    enum Call {
        case help(String)
        case run(BenchOptions)
    }

    /// Parses and checks `args` by `command`'s declaration; `BENCH_SCALE` comes from `environment`.
    static func parse(_ args: [String], environment: [String: String]) throws(BenchError) -> Call {
        let parsed = table.parse(args)
        let o = OptionValues<Arguments>(parsed, command: command.name, suggest: Suggestion.sentence)
        if o[\.help] { return .help(table.help(command)) }
        do { try table.check(parsed, for: command) } catch { throw .usage(error.message) }
        let growcert: String
        do { growcert = try o.value(\.growcert) } catch { throw .usage(error.message) }
        guard FileManager.default.isExecutableFile(atPath: growcert) else {
            throw .usage("--growcert must name the built growcert binary, an executable file; '\(growcert)' is not one.")
        }
        let only = Set((o[\.only] ?? "").split(separator: ",").map(String.init))
        if let unknown = only.sorted().first(where: { !Benchmarks.names.contains($0) }) {
            throw .usage("Unknown benchmark '\(unknown)' in --only.\(Suggestion.sentence(for: unknown, among: Benchmarks.names)) Known benchmarks: \(Benchmarks.names.joined(separator: ", ")).")
        }
        let scale = environment["BENCH_SCALE"] ?? "full"
        guard scale == "full" || scale == "small" else { throw .usage("BENCH_SCALE is 'small' or unset, not '\(scale)'.") }
        return .run(BenchOptions(growcert: growcert, out: o[\.out] ?? defaultOut, divisor: scale == "small" ? 10 : 1,
                                 only: only, keep: o[\.keep]))
    }
}

/// Why the bench could not run.
enum BenchError: Error, CustomStringConvertible {
    /// The call was wrong: exit 64, with where the help is.
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case .usage(let m): return "\(m)\nSee 'growcert-bench --help'."
        case .failed(let m): return m
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
