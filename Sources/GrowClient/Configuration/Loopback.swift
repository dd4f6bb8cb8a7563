/// Recognises loopback hosts: 127.0.0.0/8, ::1 (including IPv4-mapped ::ffff:127.x.x.x) and localhost.
enum Loopback {
    static func isLoopback(host rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let zone = host.firstIndex(of: "%") { host = String(host[..<zone]) }
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if let octets = ipv4(host) { return octets[0] == 127 }
        if let groups = ipv6(host) {
            if groups == [0, 0, 0, 0, 0, 0, 0, 1] { return true }
            // ::ffff:127.a.b.c
            return groups[0..<5].allSatisfy { $0 == 0 } && groups[5] == 0xffff && groups[6] >> 8 == 127
        }
        return false
    }

    /// Dotted-quad IPv4 only; `127.1` and other shorthand are not accepted as loopback.
    static func ipv4(_ host: String) -> [Int]? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(part), value <= 255 else { return nil }
            octets.append(value)
        }
        return octets
    }

    static func ipv6(_ host: String) -> [Int]? {
        guard host.contains(":") else { return nil }
        var text = host
        var tail: [Int] = []
        // A trailing dotted quad stands for the last two groups.
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            guard let v4 = ipv4(String(text[text.index(after: lastColon)...])) else { return nil }
            tail = [v4[0] << 8 | v4[1], v4[2] << 8 | v4[3]]
            text = String(text[...lastColon])
            if text.hasSuffix(":") && !text.hasSuffix("::") { text.removeLast() }
        }
        func groups(_ s: Substring) -> [Int]? {
            if s.isEmpty { return [] }
            var out: [Int] = []
            for g in s.split(separator: ":", omittingEmptySubsequences: false) {
                guard !g.isEmpty, g.count <= 4, let v = Int(g, radix: 16) else { return nil }
                out.append(v)
            }
            return out
        }
        let halves = text.components(separatedBy: "::")
        var result: [Int]
        switch halves.count {
        case 1:
            guard let all = groups(Substring(halves[0])) else { return nil }
            result = all + tail
        case 2:
            guard let head = groups(Substring(halves[0])), let rest = groups(Substring(halves[1])) else { return nil }
            let missing = 8 - head.count - rest.count - tail.count
            guard missing >= 1 else { return nil }
            result = head + Array(repeating: 0, count: missing) + rest + tail
        default:
            return nil
        }
        return result.count == 8 ? result : nil
    }
}
