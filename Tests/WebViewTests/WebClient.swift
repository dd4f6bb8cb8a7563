import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP answer as the raw test client read it.
struct WebAnswer: CustomStringConvertible {
    let status: Int
    let headers: [(String, String)]
    let body: Data

    func header(_ name: String) -> String? { headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1 }
    func headers(_ name: String) -> [String] { headers.filter { $0.0.caseInsensitiveCompare(name) == .orderedSame }.map(\.1) }
    var text: String { String(decoding: body, as: UTF8.self) }
    var description: String { "\(status) \(headers.map { "\($0.0): \($0.1)" }.joined(separator: "; "))\n\(text.prefix(2000))" }
    var json: Any? { try? JSONSerialization.jsonObject(with: body) }
}

/// A raw HTTP/1.1 client over a socket: it sends exactly the headers a test names (a forged Host or Origin too),
/// and reads the answer until the server closes the connection.
enum WebClient {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard ok == 0 else {
            close(fd)
            throw Failure(description: "connect: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    static func send(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let n = Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }

    static func head(_ method: String, _ path: String, host: String?, headers: [String: String], length: Int?) -> Data {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if let host { text += "Host: \(host)\r\n" }
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { text += "\(k): \(v)\r\n" }
        if let length { text += "Content-Length: \(length)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Data(text.utf8)
    }

    static func readAnswer(_ fd: Int32) throws -> WebAnswer {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(buffer, count: n)
        }
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no HTTP answer: \(String(decoding: data, as: UTF8.self))") }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return WebAnswer(status: status, headers: headers, body: data[end.upperBound...])
    }

    /// Sends one request and reads its answer. `host` nil: `127.0.0.1:PORT`; "" sends no Host header.
    static func request(_ method: String, _ path: String, port: UInt16, host: String? = nil, headers: [String: String] = [:], body: Data? = nil) throws -> WebAnswer {
        let fd = try connect(port: port)
        defer { close(fd) }
        let hostValue = host == nil ? "127.0.0.1:\(port)" : host == "" ? nil : host
        send(fd, head(method, path, host: hostValue, headers: headers, length: body?.count ?? (method == "GET" ? nil : 0)))
        if let body { send(fd, body) }
        return try readAnswer(fd)
    }
}
