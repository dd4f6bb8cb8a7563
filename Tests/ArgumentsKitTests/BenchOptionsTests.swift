import Foundation
import Testing
import TestSupport
@testable import growcert_bench

/// `growcert-bench` is declared in the same parser as `growcert`: same flags and defaults as before, `--help`, exit 64.
@Suite struct BenchOptionsTests {
    /// Any executable file stands for the growcert binary here.
    static let executable = "/bin/sh"

    func options(_ args: [String], environment: [String: String] = [:]) throws -> BenchOptions {
        guard case .run(let options) = try BenchOptions.parse(args, environment: environment) else { throw BenchError.failed("help, not a run") }
        return options
    }

    func usage(_ args: [String], environment: [String: String] = [:]) -> String? {
        do { _ = try BenchOptions.parse(args, environment: environment) } catch {
            if case .usage(let m) = error { return m }
            return "not a usage error: \(error)"
        }
        return nil
    }

    /// A full `make bench` runs `render`, then `render-100k`, which measures 10,000 runs again in the same scratch folder:
    /// with the same file names its render refused to replace the first one's report, and the row was not measured.
    @Test func renderAndRender100kWriteTheirOwnScratchFiles() {
        let render = RenderBenchmark().name, large = RenderLargeBenchmark().name
        for ext in ["sqlite", "html", "md"] {
            #expect(RenderBenchmark.scratchName(render, runs: 10_000, ext: ext) != RenderBenchmark.scratchName(large, runs: 10_000, ext: ext))
        }
    }

    @Test func theDefaultsAreTheOldOnes() throws {
        let o = try options(["--growcert", Self.executable])
        #expect(o.growcert == Self.executable && o.out == "bench/results.json" && o.only.isEmpty && !o.keep)
        #expect(o.divisor == 1 && o.scale == "full")
    }

    @Test func everyFlagIsParsed() throws {
        let o = try options(["--growcert", Self.executable, "--out", "r.json", "--only", "ingest,verify", "--keep"], environment: ["BENCH_SCALE": "small"])
        #expect(o.out == "r.json" && o.only == ["ingest", "verify"] && o.keep)
        #expect(o.divisor == 10 && o.scale == "small" && o.n(1000) == 100)
        #expect(try options(["--out=x.json", "--growcert=\(Self.executable)"]).out == "x.json")
    }

    @Test("Bad input is a usage error that says what was wrong", arguments: [
        (["--growcert", executable, "--fast"], "Unknown option '--fast' for 'growcert-bench'."),
        (["--growcert", executable, "--kep"], "Unknown option '--kep' for 'growcert-bench'. Did you mean '--keep'?"),
        (["--growcert"], "Option '--growcert' needs a value."),
        ([], "Missing --growcert PATH: the built growcert binary to time."),
        (["--growcert", executable, "extra"], "Unexpected argument 'extra'."),
        (["--growcert", "/nonexistent/growcert"], "--growcert must name the built growcert binary, an executable file; '/nonexistent/growcert' is not one."),
        (["--growcert", executable, "--only", "ingest,verfy"], "Unknown benchmark 'verfy' in --only. Did you mean 'verify'? Known benchmarks: ingest, cli-add, verify, render, checks, postgresql, render-100k, verify-10m."),
    ])
    func badInput(args: [String], message: String) {
        #expect(usage(args) == message)
    }

    @Test func anUnknownScaleIsRefused() {
        #expect(usage(["--growcert", Self.executable], environment: ["BENCH_SCALE": "huge"]) == "BENCH_SCALE is 'small' or unset, not 'huge'.")
    }

    @Test func helpListsEveryFlagWithoutNeedingTheRequiredOne() throws {
        for flag in ["--help", "-h"] {
            guard case .help(let text) = try BenchOptions.parse([flag], environment: [:]) else {
                Issue.record("\(flag) is not help")
                continue
            }
            #expect(text.contains("Usage:\n  growcert-bench --growcert PATH [--out FILE] [--only NAME,NAME] [--keep] [--help]\n"))
            for name in ["--growcert PATH", "--out FILE", "--only NAME,NAME", "--keep", "--help"] { #expect(text.contains("\n  \(name) ")) }
            #expect(text.contains("ingest, cli-add, verify, render, checks, postgresql"))
            #expect(text.contains("BENCH_SCALE=small"))
        }
    }

    /// The built binary: help on stdout with exit 0, a bad flag on stderr with exit 64 and the pointer to the help.
    @Test func theBinaryExits64OnABadFlagAnd0OnHelp() throws {
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) { root.deleteLastPathComponent() }
        let binary = root.appendingPathComponent(".build/debug/growcert-bench").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no growcert-bench at \(binary): run 'swift build --build-tests' first")
        let dir = try supportTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(_ args: [String]) throws -> (code: Int32, out: String, err: String) {
            let out = dir.appendingPathComponent("out").path, err = dir.appendingPathComponent("err").path
            let process = try SpawnedProcess(binary, args, stdout: .file(out), stderr: .file(err))
            let code = process.waitForExit()
            let o = FileManager.default.contents(atPath: out) ?? Data(), e = FileManager.default.contents(atPath: err) ?? Data()
            return (code, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
        }
        let bad = try run(["--growcert", Self.executable, "--fast"])
        #expect(bad.code == 64)
        #expect(bad.err == "growcert-bench: Unknown option '--fast' for 'growcert-bench'.\nSee 'growcert-bench --help'.\n")
        #expect(bad.out.isEmpty)
        let help = try run(["--help"])
        #expect(help.code == 0 && help.err.isEmpty)
        #expect(help.out.hasPrefix("time growcert against its baselines"))
    }
}
