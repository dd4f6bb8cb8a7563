import ArgumentsKit
import Foundation

/// `growcert-bench`: runs every benchmark in one process, prints a table, writes `bench/results.json`.
///
/// Each benchmark measures growcert and its baseline side by side, on the same machine at the
/// same time, so the ratio means something even on a noisy shared machine. `BENCH_SCALE=small`
/// shrinks every size tenfold. See docs/performance.md.
@main
enum Bench {
    static func main() async {
        do {
            let arguments = CommandLineArguments.validated()
            if let bad = arguments.firstIndex(where: { $0 == nil }) { throw BenchError.usage("Argument \(bad + 1) is not valid UTF-8.") }
            switch try BenchOptions.parse(arguments.compactMap { $0 }, environment: ProcessInfo.processInfo.environment) {
            case .help(let text): print(text, terminator: "")
            case .run(let options): exit(try await BenchOptions.table.run(BenchOptions.command, options, ParsedArguments()))
            }
        } catch {
            FileHandle.standardError.write(Data("growcert-bench: \(error)\n".utf8))
            exit(64)
        }
    }

    /// Runs the benchmarks `options` select, prints the table and writes the results; 0 once written, 1 when a
    /// benchmark failed (its row says why; the others are still measured and written).
    static func run(_ options: BenchOptions) async throws -> Int32 {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(at: work) } }
        let context = BenchContext(options: options, work: work)
        var results: [BenchResult] = []
        var failed: [String] = []
        for benchmark in Benchmarks.all where options.only.isEmpty ? !benchmark.optIn : options.only.contains(benchmark.name) {
            context.log("== \(benchmark.name)")
            do {
                results += try await benchmark.runAll(context)
            } catch {
                context.log("\(benchmark.name) failed: \(error)")
                failed.append(benchmark.name)
                results.append(BenchResult.notRun(benchmark.name, unit: "", target: "", why: "failed: \(error)"))
            }
        }
        print(BenchResult.table(results), terminator: "")
        try BenchResult.write(results, machine: Machine.describe(), scale: options.scale, to: options.out)
        context.log("wrote \(options.out)")
        if !failed.isEmpty { context.log("failed: \(failed.joined(separator: ", "))") }
        return failed.isEmpty ? 0 : 1
    }
}

/// The benchmarks, in the order they run.
enum Benchmarks {
    static let all: [Benchmark] = [IngestBenchmark(), CLIAddBenchmark(), VerifyBenchmark(), RenderBenchmark(), ChecksBenchmark(), PostgresBenchmark(),
                                   RenderLargeBenchmark(), VerifyLargeBenchmark()]
    /// Their names, for `--only`.
    static let names = all.map(\.name)
}

/// One benchmark: a name and a run that measures growcert and its baseline.
protocol Benchmark: Sendable {
    var name: String { get }
    /// Run only when `--only` names it (it takes too long for every `make bench`).
    var optIn: Bool { get }
    func run(_ context: BenchContext) async throws -> BenchResult
    /// Every row the benchmark writes (by default its one `run` row); `checks` writes two.
    func runAll(_ context: BenchContext) async throws -> [BenchResult]
}

extension Benchmark {
    var optIn: Bool { false }
    func runAll(_ context: BenchContext) async throws -> [BenchResult] { [try await run(context)] }
}
