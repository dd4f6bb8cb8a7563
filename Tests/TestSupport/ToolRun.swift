import Foundation

/// A tool run to its end, as a `SpawnedProcess` (`posix_spawn` and `waitpid`).
///
/// Foundation's `Process.waitUntilExit` waits on a run loop for a termination notice it does not always get: a test
/// process once hung for twenty minutes in it after `ip` had exited (and `pg_ctl start`, which leaves the server
/// holding the tool's output file, did the same). The output goes through a file, so no pipe can fill.
public struct ToolRun: Sendable {
    /// Whether the tool exited with status 0.
    public let succeeded: Bool
    /// The raw `waitpid` status.
    public let status: Int32
    /// What the tool wrote to its standard output (and its standard error, when asked).
    public let output: String

    /// Runs `tool` (an absolute path) with `arguments`, standard input from `/dev/null`; standard error goes with the
    /// output when `withErrors`, else to `/dev/null`. Throws only when the tool cannot be started.
    public static func run(_ tool: String, _ arguments: [String], withErrors: Bool = true) throws -> ToolRun {
        let outputFile = "/tmp/growcert-tool-\(getpid())-\(UUID().uuidString.prefix(8)).out"
        defer { unlink(outputFile) }
        let process = try SpawnedProcess(tool, arguments, stdin: .null, stdout: .file(outputFile), stderr: withErrors ? .standardOutput : .null)
        process.waitForExit()
        let status = process.rawStatus ?? 0
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        return ToolRun(succeeded: status & 0x7F == 0 && (status >> 8) & 0xFF == 0, status: status, output: output)
    }
}
