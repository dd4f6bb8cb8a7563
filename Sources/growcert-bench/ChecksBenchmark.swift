/// `checks`: the GrooveGrow check suite against the in-process emulator, and per-request client overhead
/// against `curl`. Waits for the Checks module; until then it reports "not run".
struct ChecksBenchmark: Benchmark {
    let name = "checks"

    func run(_ context: BenchContext) async throws -> BenchResult {
        BenchResult.notRun(name, unit: "s", target: "suite <= 10 s, overhead ratio <= 2",
                           why: "the Checks module (check suite) has not landed on this branch yet")
    }
}
