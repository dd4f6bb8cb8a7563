import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The link of this machine that a peer address is reached through, as the kernel routes it now.
///
/// Asked once per exchange by `CurlTransport`, right after the exchange, from the kernel's own routing table (a netlink
/// `RTM_GETROUTE` for the peer address: policy routing and `src` hints included) and the link's kind (`RTM_GETLINK`'s
/// `IFLA_INFO_KIND`). A veth's other end is always in this kernel (another network namespace of this machine), so a peer
/// reached through one is this machine, however public its address looks; so is a peer behind a bridge whose ports are
/// all virtual (veth, tap: no hardware device). A physical link, a VPN tunnel (`tun`, `wireguard`) or a bridge with a
/// hardware port may lead to another machine.
package struct LocalLink: Sendable, Hashable {
    /// The interface's name (`eth0`, `veth1`), as this machine calls it.
    package var name: String
    /// The link's kind as the kernel reports it (`veth`, `bridge`, `tun`, …); `device` for a link with hardware and no kind.
    package var kind: String
    /// Whether every way out of this link stays in this kernel: a veth, or a bridge with only virtual ports.
    package var staysInThisKernel: Bool

    /// `veth1 (veth)`: the form a record keeps.
    package var recorded: String { "\(name) (\(kind)\(staysInThisKernel ? ", this kernel" : ""))" }

    /// Whether a recorded link (`LocalLink.recorded`) says the link stays in this kernel.
    package static func recordedStaysInThisKernel(_ text: String) -> Bool { text.hasSuffix(", this kernel)") }

    /// The link the kernel routes `address` through now; nil when netlink cannot say (not Linux, no route).
    package static func toward(_ address: PeerAddress) -> LocalLink? {
        guard let index = NetlinkRoute.outgoingInterface(to: address) else { return nil }
        return link(index: index)
    }

    /// A link by its interface index.
    static func link(index: Int32) -> LocalLink? {
        var buffer = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        guard if_indextoname(UInt32(index), &buffer) != nil else { return nil }
        let name = String(nulTerminated: buffer)
        let kind = NetlinkRoute.linkKind(index: index) ?? (hasDevice(name) ? "device" : "virtual")
        var stays = kind == "veth"
        if kind == "bridge" {
            let ports = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/net/\(name)/brif")) ?? []
            stays = !ports.isEmpty && ports.allSatisfy { !hasDevice($0) && (NetlinkRoute.linkKind(name: $0) ?? "") != "tun" }
        }
        return LocalLink(name: name, kind: kind, staysInThisKernel: stays)
    }

    /// Whether the interface has a hardware device behind it (`/sys/class/net/NAME/device`).
    private static func hasDevice(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: "/sys/class/net/\(name)/device")
    }
}

/// The two netlink questions `LocalLink` asks, by hand: Glibc's Swift module declares no netlink header.
enum NetlinkRoute {
    private static let netlinkFamily: Int32 = 16  // AF_NETLINK
    private static let routeProtocol: Int32 = 0  // NETLINK_ROUTE
    private static let getRoute: UInt16 = 26, newRoute: UInt16 = 24, getLink: UInt16 = 18, newLink: UInt16 = 16, error: UInt16 = 2
    private static let request: UInt16 = 1  // NLM_F_REQUEST
    private static let attributeDestination: UInt16 = 1, attributeOutputInterface: UInt16 = 4  // RTA_DST, RTA_OIF
    private static let attributeLinkInfo: UInt16 = 18, attributeInfoKind: UInt16 = 1  // IFLA_LINKINFO, IFLA_INFO_KIND

    /// `RTM_GETROUTE` for one address: the interface index of `RTA_OIF`.
    static func outgoingInterface(to address: PeerAddress) -> Int32? {
        var body: [UInt8] = [address.bytes.count == 4 ? UInt8(AF_INET) : UInt8(AF_INET6), UInt8(address.bytes.count * 8)]
        body += [UInt8](repeating: 0, count: 10)  // rtmsg: src_len, tos, table, protocol, scope, type, flags
        body += attribute(attributeDestination, address.bytes)
        guard let reply = ask(type: getRoute, body: body), reply.type == newRoute, reply.payload.count >= 12 else { return nil }
        for (type, value) in attributes(reply.payload, from: 12) where type == attributeOutputInterface && value.count == 4 {
            return value.withUnsafeBytes { Int32(littleEndian: $0.loadUnaligned(as: Int32.self)) }
        }
        return nil
    }

    /// `RTM_GETLINK` by index: `IFLA_INFO_KIND` inside `IFLA_LINKINFO`; nil for a link with no kind (hardware).
    static func linkKind(index: Int32) -> String? {
        var body: [UInt8] = [UInt8(AF_UNSPEC), 0, 0, 0]  // ifinfomsg: family, pad, type
        body += withUnsafeBytes(of: index.littleEndian) { Array($0) }
        body += [UInt8](repeating: 0, count: 8)  // flags, change
        guard let reply = ask(type: getLink, body: body), reply.type == newLink, reply.payload.count >= 16 else { return nil }
        for (type, value) in attributes(reply.payload, from: 16) where type & 0x3fff == attributeLinkInfo {
            for (inner, kind) in attributes(value, from: 0) where inner & 0x3fff == attributeInfoKind {
                return String(decoding: kind.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return nil
    }

    static func linkKind(name: String) -> String? {
        let index = if_nametoindex(name)
        return index == 0 ? nil : linkKind(index: Int32(index))
    }

    private static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        let length = UInt16(4 + value.count)
        var out = withUnsafeBytes(of: length.littleEndian) { Array($0) } + withUnsafeBytes(of: type.littleEndian) { Array($0) } + value
        while out.count % 4 != 0 { out.append(0) }
        return out
    }

    private static func attributes(_ bytes: [UInt8], from start: Int) -> [(UInt16, [UInt8])] {
        var out: [(UInt16, [UInt8])] = []
        var at = start
        while at + 4 <= bytes.count {
            let length = Int(UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)
            let type = UInt16(bytes[at + 2]) | UInt16(bytes[at + 3]) << 8
            guard length >= 4, at + length <= bytes.count else { break }
            out.append((type, Array(bytes[(at + 4)..<(at + length)])))
            at += (length + 3) & ~3
        }
        return out
    }

    /// Sends one request to the kernel and reads its one answer: its type and the bytes after the header.
    private static func ask(type: UInt16, body: [UInt8]) -> (type: UInt16, payload: [UInt8])? {
        let fd = socket(netlinkFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), routeProtocol)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let length = UInt32(16 + body.count)
        var message = withUnsafeBytes(of: length.littleEndian) { Array($0) }
        message += withUnsafeBytes(of: type.littleEndian) { Array($0) } + withUnsafeBytes(of: request.littleEndian) { Array($0) }
        message += [1, 0, 0, 0, 0, 0, 0, 0]  // seq 1, pid 0
        message += body
        var kernel = [UInt8](repeating: 0, count: 12)  // sockaddr_nl: family, pad, pid 0 (the kernel), groups 0
        kernel[0] = UInt8(netlinkFamily)
        let sent = message.withUnsafeBytes { m in
            kernel.withUnsafeBytes { k in
                sendto(fd, m.baseAddress, m.count, 0, k.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(k.count))
            }
        }
        guard sent == message.count else { return nil }
        var reply = [UInt8](repeating: 0, count: 16384)
        let received = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard received >= 16 else { return nil }
        let total = min(Int(reply[0]) | Int(reply[1]) << 8 | Int(reply[2]) << 16 | Int(reply[3]) << 24, received)
        let replyType = UInt16(reply[4]) | UInt16(reply[5]) << 8
        guard replyType != error, total >= 16 else { return nil }
        return (replyType, Array(reply[16..<total]))
    }
}
