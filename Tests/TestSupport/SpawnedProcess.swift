import Foundation
import Synchronization

/// A child process started with `posix_spawn` and waited for with `waitid`/`waitpid`: the tests' one way to run a tool.
///
/// Foundation's `Process.waitUntilExit` waits on a run loop for a termination notice it does not always get: a test
/// process once hung for twenty minutes in it after the child had exited. Here the waiting thread asks the kernel.
///
/// The child is reaped exactly once, under a lock that `terminate` and `send(signal:)` take too, so a signal never goes
/// to a reaped pid the system may have handed to another process. `isRunning`, `terminate` and `waitForExit` may be
/// called from any thread, also while another thread waits.
///
/// The child gets only descriptors 0, 1 and 2 (every other one is closed in it, as `Process` did), an empty signal
/// mask, and stays in this process's process group.
public final class SpawnedProcess: Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// This process's standard input.
        case inherit
        /// `/dev/null`: the child reads end-of-file at once.
        case null
        /// A file, opened for reading.
        case file(String)
        /// A descriptor of this process (a pipe's read end, say), duplicated into the child.
        case descriptor(Int32)
    }

    /// Where the child's standard output or standard error goes.
    public enum Output: Sendable {
        /// This process's own.
        case inherit
        /// `/dev/null`.
        case null
        /// A file, created or emptied.
        case file(String)
        /// A descriptor of this process, duplicated into the child.
        case descriptor(Int32)
        /// Wherever the child's standard output goes (standard error only).
        case standardOutput
    }

    /// How the child ended.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    public let executable: String
    public let arguments: [String]
    public let processIdentifier: pid_t
    /// The raw wait status, once the child is reaped.
    private let reaped = Mutex<Int32?>(nil)

    /// Starts `executable` (an absolute path: no PATH search) with `arguments`.
    ///
    /// `environment`: the child's whole environment; nil gives it this process's. `directory`: where it starts; nil
    /// leaves it in this process's current directory. File paths are opened before the change of directory. Throws
    /// when the child cannot be started (the executable is missing, say).
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, directory: String? = nil,
                stdin: Input = .inherit, stdout: Output = .inherit, stderr: Output = .inherit) throws {
        self.executable = executable
        self.arguments = arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        try Self.check(Self.redirect(stdin, &actions), "standard input")
        try Self.check(Self.redirect(stdout, to: 1, &actions), "standard output")
        try Self.check(Self.redirect(stderr, to: 2, &actions), "standard error")
        try Self.check(GlibcSpawn.addClosefrom()(&actions, 3), "closing inherited descriptors")
        if let directory {
            let addChdir = try GlibcSpawn.addChdir()
            try Self.check(addChdir(&actions, directory), "the directory \(directory)")
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The spawning thread's blocked signals would be blocked in the child too (a SIGTERM that never lands).
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = if let envp {
            posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        } else {
            posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        }
        guard rc == 0 else { throw SupportFailure("cannot start \(executable): \(String(cString: strerror(rc)))") }
        processIdentifier = pid
    }

    deinit {
        // A child that has already ended is reaped now rather than left a zombie; a running one is left running.
        reaped.withLock { Self.reap(processIdentifier, &$0) }
    }

    /// Whether the child has not ended yet (an ended child is reaped here).
    public var isRunning: Bool {
        reaped.withLock { status in
            Self.reap(processIdentifier, &status)
            return status == nil
        }
    }

    /// Sends SIGTERM, unless the child has been reaped already.
    public func terminate() {
        send(signal: SIGTERM)
    }

    /// Sends `signal`, unless the child has been reaped already; returns whether it was sent.
    @discardableResult
    public func send(signal: Int32) -> Bool {
        reaped.withLock { status in
            Self.reap(processIdentifier, &status)
            return status == nil && kill(processIdentifier, signal) == 0
        }
    }

    /// Waits for the child to end and returns its code as `Process.terminationStatus` gives it: the exit status, or
    /// the number of the signal that ended it (see `terminationReason`). Returns at once when it has ended already.
    @discardableResult
    public func waitForExit() -> Int32 {
        while true {
            if let status = reaped.withLock({ $0 }) { return Self.code(status) }
            // Blocks until the child has ended without reaping it (WNOWAIT): the reaping happens under the lock, below.
            var info = siginfo_t()
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0, errno == EINTR { continue }
            reaped.withLock { Self.reap(processIdentifier, &$0) }
        }
    }

    /// The child's code (as `waitForExit` returns it) once it has been reaped, else nil.
    public var terminationStatus: Int32? {
        reaped.withLock { $0 }.map(Self.code)
    }

    /// Whether the child exited or was ended by a signal, once it has been reaped, else nil.
    public var terminationReason: TerminationReason? {
        reaped.withLock { $0 }.map { $0 & 0x7F == 0 ? .exit : .uncaughtSignal }
    }

    /// The raw `waitpid` status, once the child has been reaped, else nil.
    public var rawStatus: Int32? {
        reaped.withLock { $0 }
    }

    /// The exit status, or the signal number for a child ended by a signal (no WUNTRACED: a stopped child is not reported).
    private static func code(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Reaps `pid` without blocking when it has ended and `status` is still nil. Call with the lock held.
    private static func reap(_ pid: pid_t, _ status: inout Int32?) {
        guard status == nil else { return }
        while true {
            var raw: Int32 = 0
            let r = waitpid(pid, &raw, WNOHANG)
            if r == pid {
                status = raw
            } else if r < 0, errno == EINTR {
                continue
            } else if r < 0 {
                // Not our child any more (something else reaped it): reported as exit status 255.
                status = 255 << 8
            }
            return
        }
    }

    private static func redirect(_ input: Input, _ actions: inout posix_spawn_file_actions_t) -> Int32 {
        switch input {
        case .inherit: 0
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
        }
    }

    private static func redirect(_ output: Output, to target: Int32, _ actions: inout posix_spawn_file_actions_t) -> Int32 {
        switch output {
        case .inherit: 0
        case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
        case .standardOutput: target == 1 ? EINVAL : posix_spawn_file_actions_adddup2(&actions, 1, target)
        }
    }

    private static func check(_ rc: Int32, _ what: String) throws {
        guard rc == 0 else { throw SupportFailure("cannot set up \(what) for a child process: \(String(cString: strerror(rc)))") }
    }
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `posix_spawn_file_actions_addclosefrom_np` (2.34): in
/// `<spawn.h>` only under `_GNU_SOURCE`, which Swift's Glibc module does not define, so looked up by name.
private enum GlibcSpawn {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static func addChdir() throws -> AddChdir { try symbol("posix_spawn_file_actions_addchdir_np") }
    static func addClosefrom() throws -> AddClosefrom { try symbol("posix_spawn_file_actions_addclosefrom_np") }

    private static func symbol<F>(_ name: String) throws -> F {
        guard let address = dlsym(nil, name) else { throw SupportFailure("this C library has no \(name) (glibc 2.34 or later has)") }
        return unsafeBitCast(address, to: F.self)
    }
}
