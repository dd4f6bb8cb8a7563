import Foundation
import Synchronization

/// A network namespace joined to this one by a veth pair: a free `/30` of `10.233.0.0/16` (or of `203.0.113.0/24`), `.1` here and `.2` inside.
///
/// The only traffic is between this machine and the namespace. `remove()` deletes both (the veth goes with the namespace).
public final class NetworkNamespace: Sendable {
    public let name: String
    public let hostSide: String
    public let outsideAddress: String
    public let insideAddress: String

    /// Root and a working `ip netns`: tried once by making and removing a namespace.
    public static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return false }
        let probe = "gcprobe\(getpid())"
        guard (try? ip(["netns", "add", probe])) != nil else { return false }
        _ = try? ip(["netns", "del", probe])
        return true
    }()

    private static let made = Atomic<Int>(0)

    /// `publicRange`: addresses from TEST-NET-3 (`203.0.113.0/24`, public-looking: no private-range warning), as an
    /// insider's fake "hosted" Sandbox would use.
    public init(publicRange: Bool = false) throws {
        // One test process may hold several at once (suites run in parallel), and other test processes may too: names
        // carry the pid and a serial; the /30 is one no link on this machine holds, chosen and taken under a file lock.
        let serial = Self.made.add(1, ordering: .relaxed).newValue
        name = "growcert\(getpid())n\(serial)"
        hostSide = "gch\(getpid() % 100000)n\(serial % 100)"
        let peer = "gcn\(getpid() % 100000)n\(serial % 100)"
        let lock = open("/run/growcert-netns.lock", O_CREAT | O_RDWR, 0o600)
        guard lock >= 0 else { throw SupportFailure("cannot open /run/growcert-netns.lock") }
        defer { close(lock) }  // closing releases the flock
        guard flock(lock, LOCK_EX) == 0 else { throw SupportFailure("cannot lock /run/growcert-netns.lock") }
        Self.reapNamespacesOfEndedProcesses()
        let block = try Self.freeBlock(publicRange: publicRange)
        outsideAddress = block.outside
        insideAddress = block.inside
        try Self.ip(["netns", "add", name])
        do {
            try Self.ip(["link", "add", hostSide, "type", "veth", "peer", "name", peer])
            try Self.ip(["link", "set", peer, "netns", name])
            try Self.ip(["addr", "add", "\(outsideAddress)/30", "dev", hostSide])
            try Self.ip(["link", "set", hostSide, "up"])
            try Self.ip(["netns", "exec", name, "ip", "addr", "add", "\(insideAddress)/30", "dev", peer])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", peer, "up"])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    /// The first `/30` (from a pid-dependent start) whose addresses no link on this machine holds.
    private static func freeBlock(publicRange: Bool) throws -> (outside: String, inside: String) {
        let used = Set(try output(["-o", "-4", "addr", "show"]).split(separator: " ").compactMap { word -> String? in
            guard let slash = word.firstIndex(of: "/") else { return nil }
            return String(word[..<slash])
        })
        let blocks = publicRange ? 64 : 16_384
        let start = Int(getpid()) % blocks
        for step in 0..<blocks {
            let index = (start + step) % blocks
            let (outside, inside) = publicRange
                ? ("203.0.113.\(index * 4 + 1)", "203.0.113.\(index * 4 + 2)")
                : ("10.233.\(index / 64).\(index % 64 * 4 + 1)", "10.233.\(index / 64).\(index % 64 * 4 + 2)")
            if !used.contains(outside) && !used.contains(inside) { return (outside, inside) }
        }
        throw SupportFailure("no free /30 for a test namespace")
    }

    /// Namespaces a killed test process left behind (`growcert<pid>n<serial>` whose pid is gone) hold addresses and
    /// routes; they are deleted before a new one is made.
    private static func reapNamespacesOfEndedProcesses() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/var/run/netns") else { return }
        for name in names where name.hasPrefix("growcert") {
            let digits = name.dropFirst("growcert".count).prefix { $0.isNumber }
            guard let pid = Int32(digits), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = try? ip(["netns", "del", name])  // its veth pair goes with it
        }
    }

    /// Deletes the namespace and the veth pair; safe to call twice.
    public func remove() {
        _ = try? Self.ip(["netns", "del", name])
        _ = try? Self.ip(["link", "del", hostSide])
    }

    /// Runs `body` on a new thread that has joined the namespace, so sockets it makes live there.
    public func inside<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let name = self.name
        let thread = Thread {
            defer { done.signal() }
            result.withLock { $0 = Result { try Self.join(name); return try body() } }
        }
        thread.start()
        done.wait()
        return try result.withLock { $0 }!.get()
    }

    private static func join(_ name: String) throws {
        let fd = open("/var/run/netns/\(name)", O_RDONLY)
        guard fd >= 0 else { throw SupportFailure("cannot open namespace \(name)") }
        defer { close(fd) }
        // setns(2) through dlsym: Glibc's Swift module does not declare it.
        typealias SetNS = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "setns") else {  // nil: RTLD_DEFAULT
            throw SupportFailure("setns is unavailable")
        }
        let setns = unsafeBitCast(symbol, to: SetNS.self)
        guard setns(fd, 0x4000_0000 /* CLONE_NEWNET */) == 0 else { throw SupportFailure("setns failed: \(String(cString: strerror(errno)))") }
    }

    private static func output(_ arguments: [String]) throws -> String {
        let run = try ToolRun.run("/usr/sbin/ip", arguments, withErrors: false)
        guard run.succeeded else { throw SupportFailure("ip \(arguments.joined(separator: " ")) failed") }
        return run.output
    }

    /// Runs `ip ARGUMENTS`; throws when it exits non-zero.
    @discardableResult
    public static func ip(_ arguments: [String]) throws -> Int32 {
        _ = try output(arguments)
        return 0
    }
}

