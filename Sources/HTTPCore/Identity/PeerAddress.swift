import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IP address a connection actually reached, and where it lies.
///
/// Parsed from the text libcurl reports (`CURLINFO_PRIMARY_IP`), never from a
/// URL's host name. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4
/// address it maps.
package struct PeerAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4 (and IPv4-mapped IPv6), 16 for IPv6.
    package let bytes: [UInt8]

    /// Where an address lies, as the live-hosted rule sees it.
    package enum Scope: String, Sendable, Hashable {
        /// 127.0.0.0/8, ::1.
        case loopback
        /// 0.0.0.0, :: — which reach this machine.
        case unspecified
        /// 169.254.0.0/16, fe80::/10.
        case linkLocal = "link-local"
        /// An address of one of this machine's interfaces.
        case thisMachine = "this-machine"
        /// RFC 1918, CGNAT 100.64.0.0/10, ULA fc00::/7: not this machine, but flagged.
        case privateRange = "private-range"
        /// Anything else.
        case publicRange = "public"

        /// Whether the address is this machine itself, in any of its forms.
        package var isThisMachine: Bool { self == .loopback || self == .unspecified || self == .linkLocal || self == .thisMachine }
    }

    /// Parses a numeric IPv4 or IPv6 address (brackets and a `%zone` allowed); nil for anything else, names included.
    package init?(_ text: String) {
        var host = text
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let zone = host.firstIndex(of: "%") { host = String(host[..<zone]) }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            let all = withUnsafeBytes(of: v6) { Array($0) }
            let mapped = all[0..<10].allSatisfy { $0 == 0 } && all[10] == 0xff && all[11] == 0xff
            bytes = mapped ? Array(all[12...]) : all
        } else {
            return nil
        }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Dotted decimal for IPv4, `inet_ntop`'s text for IPv6 (`?` if it fails).
    package var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var copy = in6_addr()
        withUnsafeMutableBytes(of: &copy) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(nulTerminated: buffer)
    }

    /// Where this address lies; `localAddresses` are this machine's interface addresses.
    package func scope(localAddresses: Set<PeerAddress>) -> Scope {
        if bytes.count == 4 {
            let (a, b) = (bytes[0], bytes[1])
            if a == 127 { return .loopback }
            if bytes.allSatisfy({ $0 == 0 }) || a == 0 { return .unspecified }
            if a == 169 && b == 254 { return .linkLocal }
            if localAddresses.contains(self) { return .thisMachine }
            if a == 10 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168) || (a == 100 && (64...127).contains(b)) {
                return .privateRange
            }
            return .publicRange
        }
        if bytes.dropLast().allSatisfy({ $0 == 0 }) {
            return bytes[15] == 1 ? .loopback : (bytes[15] == 0 ? .unspecified : .publicRange)
        }
        if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return .linkLocal }
        if localAddresses.contains(self) { return .thisMachine }
        if bytes[0] & 0xfe == 0xfc { return .privateRange }
        return .publicRange
    }

    /// Whether a URL's host names this machine by its text alone (`localhost`, `*.localhost`, a loopback or
    /// unspecified address literal). For advice and for keeping emulator-only requests on this machine, never
    /// for deciding `live-hosted`: that is measured on every exchange (see `SandboxIdentity`).
    package static func namesThisMachine(host rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        guard let address = PeerAddress(host) else { return false }
        let scope = address.scope(localAddresses: [])
        return scope == .loopback || scope == .unspecified
    }

    /// The addresses of every interface of this machine (`getifaddrs`), read now.
    package static func thisMachine() -> Set<PeerAddress> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var out: Set<PeerAddress> = []
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var a = $0.pointee.sin_addr
                    out.insert(PeerAddress(bytes: withUnsafeBytes(of: &a) { Array($0) }))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var a = $0.pointee.sin6_addr
                    out.insert(PeerAddress(bytes: withUnsafeBytes(of: &a) { Array($0) }))
                }
            default:
                continue
            }
        }
        return out
    }

    /// Whether a URL's host text names loopback (`localhost`, 127.0.0.0/8, ::1): only for allowing plain
    /// `http://` to the local emulator. Never decides what certifies — that is `SandboxIdentity`, on measured peers.
    package static func isLoopbackHost(_ rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        return PeerAddress(host)?.scope(localAddresses: []) == .loopback
    }
}
