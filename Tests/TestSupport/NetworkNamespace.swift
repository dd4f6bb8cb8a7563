import Foundation
import Synchronization

/// A network namespace joined to this one by a veth pair, `10.233.X.1/30` here and `10.233.X.2/30` inside (or `203.0.113.…`).
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
        // One test process may hold several at once (suites run in parallel): names and addresses differ per instance.
        let serial = Self.made.add(1, ordering: .relaxed).newValue
        let tag = (Int(getpid() % 200) + serial * 67) % 200 + 20
        name = "growcert\(getpid())n\(serial)"
        hostSide = "gch\(getpid() % 100000)n\(serial % 100)"
        let peer = "gcn\(getpid() % 100000)n\(serial % 100)"
        outsideAddress = publicRange ? "203.0.113.\(tag % 64 * 4 + 1)" : "10.233.\(tag).1"
        insideAddress = publicRange ? "203.0.113.\(tag % 64 * 4 + 2)" : "10.233.\(tag).2"
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

    @discardableResult
    public static func ip(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SupportFailure("ip \(arguments.joined(separator: " ")) failed") }
        return process.terminationStatus
    }
}

