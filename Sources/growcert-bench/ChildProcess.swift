import Foundation

/// Runs a program and measures it: wall time and the child's own peak RSS (from `wait4`).
enum ChildProcess {
    struct Measurement {
        var status: Int32
        var seconds: Double
        /// Peak resident set size of the child, in bytes.
        var peakRSS: Int
    }

    /// Runs `executable args` with stdout and stderr sent to files (or /dev/null), and waits.
    static func run(_ executable: String, _ args: [String], stdout: String = "/dev/null", stderr: String = "/dev/null",
                    environment: [String: String]? = nil) throws -> Measurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + args).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in env { free(p) } }
        var pid: pid_t = 0
        let start = monotonicSeconds()
        let rc = posix_spawnp(&pid, executable, &actions, nil, argv, env)
        guard rc == 0 else { throw BenchError.failed("cannot start '\(executable)': \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError.failed("wait4 failed for '\(executable)'") }
        }
        let seconds = monotonicSeconds() - start
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Measurement(status: exitStatus, seconds: seconds, peakRSS: Int(usage.ru_maxrss) * 1024)
    }

    /// Runs and requires exit status 0.
    @discardableResult
    static func check(_ executable: String, _ args: [String], stdout: String = "/dev/null", stderr: String = "/dev/null") throws -> Measurement {
        let m = try run(executable, args, stdout: stdout, stderr: stderr)
        guard m.status == 0 else {
            let err = stderr == "/dev/null" ? "" : (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? ""
            throw BenchError.failed("'\(([executable] + args).joined(separator: " "))' exited \(m.status). \(err)")
        }
        return m
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The median of some timings.
func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
