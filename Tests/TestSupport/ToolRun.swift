import Foundation

/// A tool run to its end, waited for with `posix_spawn` and `waitpid`.
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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        if withErrors {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, tool, &actions, nil, argv, environ)
        guard rc == 0 else { throw SupportFailure("cannot start \(tool): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        return ToolRun(succeeded: status & 0x7F == 0 && (status >> 8) & 0xFF == 0, status: status, output: output)
    }
}
