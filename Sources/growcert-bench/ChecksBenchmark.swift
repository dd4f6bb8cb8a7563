import Checks
import Foundation
import GrowClient
import HTTPCore
import Sandbox

/// `checks`: the whole GrooveGrow check suite against the in-process emulator (wall time), and
/// `checks-overhead`: the client's per-request cost against `curl` to the same endpoint.
///
/// The suite is the real one, as `growcert check run` runs it: `GrowClient` over
/// `CurlTransport`, the default disk-scan roots, the deliberate wait for a token to
/// expire and the delayed response. The overhead row times `requests` sequential
/// `GrowClient.readHoldings()` calls (`GET /v1/holdings`, decoded) on one warm client against one
/// `curl` process fetching the same URL `requests` times with the same headers over one reused
/// connection. curl's per-request time is its marginal one, `(t(N) − t(1)) / (N − 1)`, so its
/// process start does not flatter growcert. Rounds alternate; each figure is a median.
struct ChecksBenchmark: Benchmark {
    let name = "checks"
    static let overheadName = "checks-overhead"
    static let rounds = 5
    static let suiteTarget = 10.0
    static let overheadTarget = 2.0

    func run(_ context: BenchContext) async throws -> BenchResult {
        try await runAll(context)[0]
    }

    func runAll(_ context: BenchContext) async throws -> [BenchResult] {
        let emulator = try GrooveGrowEmulator(configuration: GrooveGrowConfiguration())
        let baseURL = try emulator.start()
        defer { emulator.stop() }
        let configuration = try GrowClientConfiguration(baseURL: baseURL, project: emulator.projectId, requestTimeout: 10)
        let serverKey = try GrowServerKey(emulator.serverKey)
        return [try await suite(context, configuration: configuration, serverKey: serverKey),
                try await overhead(context, configuration: configuration, serverKey: serverKey)]
    }

    // MARK: The suite

    func suite(_ context: BenchContext, configuration: GrowClientConfiguration, serverKey: GrowServerKey) async throws -> BenchResult {
        let checkContext = CheckContext(configuration: configuration, transport: CurlTransport(), credentials: .serverKey(serverKey),
                                        customerId: "c_1001")
        let start = monotonicSeconds()
        let runner = try CheckRunner(suite: GrooveGrowSuite())
        let results = try await runner.run(checkIds: [], context: checkContext)
        let seconds = monotonicSeconds() - start
        let failed = results.filter { !$0.outcome.isPassed }
        let slowest = results.max { $0.durationMilliseconds < $1.durationMilliseconds }
        context.log("checks: \(results.count) checks in \(String(format: "%.2f", seconds)) s, \(failed.count) failed"
            + (slowest.map { "; slowest \($0.checkId) \($0.durationMilliseconds) ms" } ?? ""))
        for f in failed { context.log("checks: \(f.checkId) \(f.outcome)") }
        let exchanges = results.reduce(0) { $0 + $1.transcript.count }
        return BenchResult(name: name, value: seconds, baseline: nil, ratio: nil, unit: "s", target: "suite <= 10 s, all checks pass",
                           met: seconds <= Self.suiteTarget && failed.isEmpty && results.count == runner.catalog.count,
                           extra: [("checks", Double(results.count)), ("passed", Double(results.count - failed.count)),
                                   ("exchanges", Double(exchanges)), ("slowestCheckMs", Double(slowest?.durationMilliseconds ?? 0))],
                           note: failed.isEmpty ? nil : "failed: " + failed.map(\.checkId).joined(separator: ", "))
    }

    // MARK: Per-request overhead

    func overhead(_ context: BenchContext, configuration: GrowClientConfiguration, serverKey: GrowServerKey) async throws -> BenchResult {
        let requests = max(2, context.options.n(200))
        let transport = CurlTransport()
        // A short-lived emulator token: it reaches curl on its command line only, never a file.
        let token = try await GrowServerClient(configuration: configuration, serverKey: serverKey, transport: transport)
            .issueCustomerToken(customerId: "c_1001", ttlSeconds: 300).customerToken
        let client = GrowClient(configuration: configuration, transport: transport)
        try await client.identify(customerToken: token)
        try await client.readHoldings()  // warm: connection open, first-call costs paid

        let url = configuration.baseURL.absoluteString + GrowWire.Path.holdings
        let headers = [
            "\(GrowWire.Header.project): \(configuration.projectHeaderValue)", "\(GrowWire.Header.environment): \(configuration.environment)",
            "\(GrowWire.Header.authorization): Bearer \(token)", "Accept: application/json",
        ]
        let curlArgs = ["-s", "-S", "--fail", "-o", "/dev/null"] + headers.flatMap { ["-H", $0] }
        let err = context.path("checks-curl.err")

        // The same request straight through the transport: what of growcert's time is the transport's (libcurl's).
        var plainHeaders = HTTPHeaders()
        for h in headers {
            let parts = h.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            plainHeaders.add(name: parts[0], value: parts[1])
        }
        guard let holdingsURL = URL(string: url) else { throw BenchError.failed("cannot form the holdings URL from '\(configuration.baseURL)'") }
        let plain = HTTPRequest(method: .get, url: holdingsURL, headers: plainHeaders, timeout: 10)

        var growcertTimes: [Double] = []
        var transportTimes: [Double] = []
        var curlTimes: [Double] = []
        for _ in 0..<Self.rounds {
            var start = monotonicSeconds()
            for _ in 0..<requests { try await client.readHoldings() }
            growcertTimes.append((monotonicSeconds() - start) / Double(requests))
            start = monotonicSeconds()
            for _ in 0..<requests {
                let response = try await transport.send(plain)
                guard response.status == 200 else { throw BenchError.failed("GET /v1/holdings answered \(response.status)") }
            }
            transportTimes.append((monotonicSeconds() - start) / Double(requests))
            let one = try ChildProcess.check("curl", curlArgs + [url], stderr: err).seconds
            let many = try ChildProcess.check("curl", curlArgs + Array(repeating: url, count: requests), stderr: err).seconds
            curlTimes.append(max(0, many - one) / Double(requests - 1))
        }
        let value = median(growcertTimes) * 1000
        let baseline = median(curlTimes) * 1000
        let ratio = value / baseline
        let transportMs = median(transportTimes) * 1000
        context.log("checks-overhead: \(requests) requests: growcert \(String(format: "%.3f", value)) ms each (CurlTransport alone "
            + "\(String(format: "%.3f", transportMs)) ms), curl \(String(format: "%.3f", baseline)) ms each")
        return BenchResult(name: Self.overheadName, value: value, baseline: baseline, ratio: ratio, unit: "ms/request", target: "ratio <= 2",
                           met: ratio <= Self.overheadTarget,
                           extra: [("requests", Double(requests)), ("growcertMinMs", (growcertTimes.min() ?? 0) * 1000),
                                   ("transportMs", transportMs), ("transportRatio", transportMs / baseline),
                                   ("curlMinMs", (curlTimes.min() ?? 0) * 1000)])
    }
}
