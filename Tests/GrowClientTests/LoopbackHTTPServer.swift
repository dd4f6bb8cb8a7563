import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that answers each connection with the next canned response
/// and remembers the raw request heads it received. Test-only; serves one request per connection.
final class LoopbackHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let socketFD: Int32
    // `lock` guards `heads`.
    private let lock = NSLock()
    private var heads: [String] = []

    /// Starts listening and serves `responses` (raw HTTP text) in order, one per connection.
    init?(responses: [String]) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 8) == 0 else { close(fd); return nil }
        socketFD = fd
        port = UInt16(bigEndian: address.sin_port)
        DispatchQueue.global().async { [self] in serve(responses) }
    }

    var receivedHeads: [String] { lock.withLock { heads } }

    private func serve(_ responses: [String]) {
        for response in responses {
            let client = accept(socketFD, nil, nil)
            guard client >= 0 else { return }
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.containsHeadEnd {
                let n = read(client, &buffer, buffer.count)
                if n <= 0 { break }
                received += buffer[0..<n]
            }
            let head = String(decoding: received, as: UTF8.self)
            lock.withLock { heads.append(head) }
            let bytes = Array(response.utf8)
            _ = bytes.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count) }
            close(client)
        }
        close(socketFD)
    }
}

private extension [UInt8] {
    var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        return (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
