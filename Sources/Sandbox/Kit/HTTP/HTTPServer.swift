internal import CLazyLibraries
internal import CMHD
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on libmicrohttpd, listening on 127.0.0.1 only.
///
/// Every connection gets its own thread (`MHD_USE_THREAD_PER_CONNECTION`), so a
/// handler that asks for a delay waits in that thread (through the injected
/// `EmulatorSleeper`) and never holds up other connections. Request bodies are read fully before the handler runs; a body
/// larger than `maxBodyBytes` is drained and answered with `oversizeResponse`.
package final class HTTPServer: Sendable {
    /// Turns one complete request into its response. Called on libmicrohttpd's threads.
    package typealias Handler = @Sendable (HTTPServerRequest) -> HTTPServerResponse
    /// The largest body a request may send, from its method and path, asked before any of the body is read.
    package typealias BodyLimit = @Sendable (_ method: String, _ path: String) -> Int

    private let context: ServerContext
    /// What a running server owns; start and stop may come from any thread.
    private struct Running {
        var daemon: OpaquePointer?
        var retainedContext: Unmanaged<ServerContext>?
        var boundPort: UInt16?
        /// The TLS key and certificate (PEM, NUL-terminated copies) libmicrohttpd reads; freed on stop.
        var tlsMemory: [UnsafeMutablePointer<CChar>] = []
    }
    private let running = Mutex(Running())

    /// Creates a stopped server.
    ///
    /// - Parameters:
    ///   - maxBodyBytes: the largest request body accepted; larger ones get `oversizeResponse`.
    ///   - oversizeResponse: the answer to a request whose body is too large.
    ///   - sleeper: waits out a response's `delayMilliseconds` in the connection's thread.
    ///   - handler: the request handler, called concurrently from connection threads.
    ///   - bodyLimit: a smaller limit per method and path (never above `maxBodyBytes`); a request whose
    ///     `Content-Length` is above it is answered with `oversizeResponse` before its body is read.
    package init(maxBodyBytes: Int = 1 << 20, oversizeResponse: HTTPServerResponse,
                sleeper: any EmulatorSleeper = SystemEmulatorSleeper(), bodyLimit: BodyLimit? = nil, handler: @escaping Handler) {
        context = ServerContext(handler: handler, maxBodyBytes: maxBodyBytes, oversizeResponse: oversizeResponse, sleeper: sleeper, bodyLimit: bodyLimit)
    }

    deinit { stop() }

    /// The port the server listens on, or nil when it is stopped.
    package var port: UInt16? {
        running.withLock { $0.boundPort }
    }

    /// Starts listening on 127.0.0.1:`port` (0 = any free port) and returns the real port.
    ///
    /// The listening socket is made here rather than by libmicrohttpd so that the real
    /// port can be read with `getsockname` (`MHD_get_daemon_info` is variadic and cannot be
    /// called from Swift).
    package func start(port: UInt16) throws -> UInt16 {
        try start(port: port, address: 0x7F00_0001, tls: nil)
    }

    /// Starts listening on the IPv4 `address` (dotted quad, e.g. `127.0.0.1`) and `port` (0 = any free port), serving
    /// at most `connectionLimit` connections at once (one thread each; more wait in the listen queue), and returns
    /// the real port.
    package func start(port: UInt16, bindAddress: String, connectionLimit: Int) throws -> UInt16 {
        var parsed = in_addr()
        guard inet_pton(AF_INET, bindAddress, &parsed) == 1 else { throw SandboxError.bindFailed(port: port, reason: "'\(bindAddress)' is not an IPv4 address") }
        return try start(port: port, address: UInt32(bigEndian: parsed.s_addr), tls: nil, connectionLimit: max(1, connectionLimit))
    }

    /// Test seam, never reachable from the CLI: listens on IPv4 `address` (host order), over TLS
    /// with `tls` (PEM certificate chain and key) when given.
    func start(port: UInt16, address: UInt32, tls: (certificatePEM: String, keyPEM: String)?, connectionLimit: Int? = nil) throws -> UInt16 {
        try running.withLock { running throws -> UInt16 in
            guard running.daemon == nil else { throw SandboxError.alreadyStarted }
            // libmicrohttpd is opened on first use (CLazyLibraries): a missing one is this error, not a crash.
            if let failure = lazylib_load_libmicrohttpd() { throw SandboxError.serverStartFailed(String(cString: failure)) }

            let (fd, actualPort) = try Self.makeListeningSocket(port: port, address: address)
            let retained = Unmanaged.passRetained(context)
            let completed: MHD_RequestCompletedCallback = httpServerRequestCompleted
            var options: [MHD_OptionItem] = [
                MHD_OptionItem(option: MHD_OPTION.LISTEN_SOCKET, value: Int(fd), ptr_value: nil),
                MHD_OptionItem(option: MHD_OPTION.CONNECTION_TIMEOUT, value: 60, ptr_value: nil),
                MHD_OptionItem(option: MHD_OPTION.NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: nil),
            ]
            if let connectionLimit {
                options.append(MHD_OptionItem(option: MHD_OPTION.CONNECTION_LIMIT, value: connectionLimit, ptr_value: nil))
            }
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            var tlsMemory: [UnsafeMutablePointer<CChar>] = []
            if let tls {
                guard let key = strdup(tls.keyPEM), let certificate = strdup(tls.certificatePEM) else {
                    close(fd)
                    retained.release()
                    throw SandboxError.serverStartFailed("out of memory")
                }
                tlsMemory = [key, certificate]
                options.append(MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(key)))
                options.append(MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(certificate)))
                flags |= MHD_USE_TLS.rawValue
            }
            options.append(MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil))
            let started: OpaquePointer? = options.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                return withVaList([MHD_OPTION.ARRAY.rawValue, base, MHD_OPTION.END.rawValue]) { arguments in
                    MHD_start_daemon_va(flags, actualPort, nil, nil, httpServerAccess, retained.toOpaque(), arguments)
                }
            }
            guard let started else {
                close(fd)
                retained.release()
                tlsMemory.forEach { free($0) }
                throw SandboxError.serverStartFailed("MHD_start_daemon refused the options (port \(actualPort))")
            }
            running = Running(daemon: started, retainedContext: retained, boundPort: actualPort, tlsMemory: tlsMemory)
            return actualPort
        }
    }

    /// Stops the server: closes the listening socket and waits for connection threads to end.
    ///
    /// Safe to call more than once, and on a server that never started.
    package func stop() {
        let stopped = running.withLock { running -> Running in
            defer { running = Running() }
            return running
        }
        // libmicrohttpd closes the listening socket it was given.
        if let daemon = stopped.daemon { MHD_stop_daemon(daemon) }
        stopped.retainedContext?.release()
        stopped.tlsMemory.forEach { free($0) }
    }

    private static func makeListeningSocket(port: UInt16, address host: UInt32) throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SandboxError.bindFailed(port: port, reason: String(cString: strerror(errno))) }
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: host.bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SandboxError.bindFailed(port: port, reason: reason)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SandboxError.bindFailed(port: port, reason: reason)
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }
}

/// What the C callbacks need, reached through libmicrohttpd's `cls` pointer.
private final class ServerContext: Sendable {
    let handler: HTTPServer.Handler
    let maxBodyBytes: Int
    let oversizeResponse: HTTPServerResponse
    let sleeper: any EmulatorSleeper
    let bodyLimit: HTTPServer.BodyLimit?

    init(handler: @escaping HTTPServer.Handler, maxBodyBytes: Int, oversizeResponse: HTTPServerResponse, sleeper: any EmulatorSleeper,
         bodyLimit: HTTPServer.BodyLimit?) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
        self.oversizeResponse = oversizeResponse
        self.sleeper = sleeper
        self.bodyLimit = bodyLimit
    }
}

/// The body of one request while it arrives; used only by that connection's thread.
private final class RequestState {
    var body = Data()
    var overflowed = false
    var limit: Int
    init(limit: Int) { self.limit = limit }
}

/// Collects key/value pairs from `MHD_get_connection_values`.
private final class PairCollector {
    var pairs: [(String, String)] = []
}

private func collectValues(_ connection: OpaquePointer?, _ kind: MHD_ValueKind) -> [(String, String)] {
    let collector = PairCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
            guard let cls, let key else { return MHD_Result.YES }
            let collector = Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue()
            collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return MHD_Result.YES
        }, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.pairs
}

// A file-scope function, not a closure in main.swift: it runs on libmicrohttpd's threads.
private func httpServerAccess(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls else { return MHD_Result.NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

    guard let statePointer = conCls.pointee else {
        var limit = context.maxBodyBytes
        if let bodyLimit = context.bodyLimit {
            limit = min(limit, bodyLimit(method.map { String(cString: $0) }?.uppercased() ?? "", url.map { String(cString: $0) } ?? "/"))
        }
        conCls.pointee = Unmanaged.passRetained(RequestState(limit: limit)).toOpaque()
        // A declared length over the limit is answered now, before any of the body is read (libmicrohttpd then
        // closes the connection instead of reading the body).
        if let declared = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length"),
           let length = Int(String(cString: declared).trimmingCharacters(in: .whitespaces)), length > limit {
            return queue(context.oversizeResponse, on: connection)
        }
        return MHD_Result.YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()

    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        if !state.overflowed, let uploadData {
            if state.body.count + count > state.limit {
                state.overflowed = true
                state.body = Data()
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { state.body.append($0, count: count) }
            }
        }
        uploadDataSize.pointee = 0
        return MHD_Result.YES
    }

    let response: HTTPServerResponse
    if state.overflowed {
        response = context.oversizeResponse
    } else {
        var query: [String: String] = [:]
        for (key, value) in collectValues(connection, MHD_ValueKind.GET_ARGUMENT_KIND) where query[key] == nil {
            query[key] = value
        }
        var headers: [String: String] = [:]
        for (key, value) in collectValues(connection, MHD_ValueKind.HEADER_KIND) where headers[key.lowercased()] == nil {
            headers[key.lowercased()] = value
        }
        let request = HTTPServerRequest(
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/",
            query: query,
            headers: headers,
            body: state.body
        )
        response = context.handler(request)
    }
    if response.delayMilliseconds > 0 {
        context.sleeper.sleep(milliseconds: min(response.delayMilliseconds, 600_000))
    }
    return queue(response, on: connection)
}

private func queue(_ response: HTTPServerResponse, on connection: OpaquePointer) -> MHD_Result {
    var body = response.body
    let created: OpaquePointer? = body.withUnsafeMutableBytes { raw in
        var empty: UInt8 = 0
        guard let base = raw.baseAddress, raw.count > 0 else {
            return MHD_create_response_from_buffer(0, &empty, MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        return MHD_create_response_from_buffer(raw.count, base, MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let created else { return MHD_Result.NO }
    defer { MHD_destroy_response(created) }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(created, name, value)
    }
    let status = (100...599).contains(response.status) ? UInt32(response.status) : 500
    return MHD_queue_response(connection, status, created)
}

private func httpServerRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_RequestTerminationCode
) {
    guard let conCls, let statePointer = conCls.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(statePointer).release()
    conCls.pointee = nil
}
