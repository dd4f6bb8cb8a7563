/// `checks`: the GrooveGrow check suite against the in-process emulator, and per-request client overhead
/// against `curl`. Not written yet: it reports "not run".
struct ChecksBenchmark: Benchmark {
    let name = "checks"

    func run(_ context: BenchContext) async throws -> BenchResult {
        BenchResult.notRun(name, unit: "s", target: "suite <= 10 s, overhead ratio <= 2",
                           why: "not written yet: the check suite landed on main after the other benchmarks (see docs/performance.md)")
    }
}
