internal import CCurl
internal import CLazyLibraries
internal import CCrypto
import Foundation
import Synchronization

/// The production transport: libcurl's easy interface, measuring who answered.
///
/// Every response carries `ConnectionFacts`: the address actually connected
/// to (after name resolution, whatever the URL says), whether the TLS chain
/// and host name were verified, and the server's leaf certificate (SHA-256,
/// SPKI pin, issuer). With pins configured, libcurl refuses a server whose
/// public key matches none of them during the handshake, before any request
/// byte is sent. Certificate checks are never relaxed; redirects are not
/// followed (a 3xx comes back as a response); cookies and caches are off, so
/// nothing is written to disk.
///
/// Easy handles are reused (keep-alive): an idle one is taken from the pool,
/// or a new one made when every handle is busy, so concurrent requests still
/// run concurrently. Vendor-neutral: it knows no vendor header or name.
package final class CurlTransport: HTTPTransport {
    /// Public-key pins (`sha256//BASE64`) the server must match; empty: the system trust store alone.
    package let pins: [String]
    private let caFile: String?
    private let resolve: [String]
    private let cables: Set<String>
    // Guards the idle easy handles; a handle is used by one transfer at a time, outside the lock.
    private let idle = Mutex<[CurlEasy]>([])

    /// A transport trusting the system's CA store, refusing servers that match none of `pins` (when any are given).
    package convenience init(pins: [String] = []) {
        self.init(pins: pins, caFile: nil, resolve: [], cables: [])
    }

    /// Test seam, never reachable from the CLI: `caFile` replaces the trusted CAs, `resolve`
    /// (`HOST:PORT:ADDRESS`, as `CURLOPT_RESOLVE`) answers name lookups without touching `/etc/hosts`, and `cables`
    /// names the links (a test's veth to a network namespace) that stand in for a cable to another machine.
    init(pins: [String], caFile: String?, resolve: [String], cables: Set<String> = []) {
        self.pins = pins
        self.caFile = caFile
        self.resolve = resolve
        self.cables = cables
    }

    /// Sends the request on a worker thread; every HTTP status is returned, only a missing response throws.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        if let failure = CurlGlobal.loadFailure { throw TransportError.failed(failure) }
        let transfer = CurlTransfer()
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    let easy = self.idle.withLock { $0.popLast() } ?? CurlEasy()
                    guard let easy else {
                        continuation.resume(returning: .failure(.failed("libcurl could not create a handle")))
                        return
                    }
                    let outcome = easy.perform(request, transfer: transfer, pins: self.pins, caFile: self.caFile, resolve: self.resolve,
                                               cables: self.cables)
                    self.idle.withLock { $0.append(easy) }
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .relaxed)
        }
        return try result.get()
    }

    /// Maps a libcurl result (and OpenSSL's chain verdict) onto the transport vocabulary: the one place this is decided.
    ///
    /// Refused means nothing reached the server; lost means it may have. `detail` is libcurl's error
    /// buffer, read only to tell a host-name mismatch from other verification failures (never shown:
    /// it can name the host).
    static func map(code: Int, verifyResult: Int, detail: String = "", seenPin: String?) -> TransportError {
        switch code {
        case Int(CURLE_OPERATION_TIMEDOUT.rawValue):
            return .timeout
        case Int(CURLE_COULDNT_CONNECT.rawValue), Int(CURLE_COULDNT_RESOLVE_HOST.rawValue), Int(CURLE_COULDNT_RESOLVE_PROXY.rawValue):
            return .connectionRefused
        case Int(CURLE_SEND_ERROR.rawValue), Int(CURLE_RECV_ERROR.rawValue), Int(CURLE_GOT_NOTHING.rawValue), Int(CURLE_PARTIAL_FILE.rawValue):
            return .connectionLost
        case Int(CURLE_SSL_PINNEDPUBKEYNOTMATCH.rawValue):
            return .tlsFailure(.pinMismatch(seen: seenPin))
        case Int(CURLE_PEER_FAILED_VERIFICATION.rawValue):
            // libcurl's own host-name check: "no alternative certificate subject name matches target host name".
            if detail.contains("subject name") { return .tlsFailure(.nameMismatch) }
            switch Int32(verifyResult) {
            case X509_V_ERR_CERT_HAS_EXPIRED: return .tlsFailure(.expired)
            case X509_V_ERR_CERT_NOT_YET_VALID: return .tlsFailure(.notYetValid)
            // The chain verified (0) but libcurl's host-name check refused it, or OpenSSL's did (62).
            case X509_V_OK, X509_V_ERR_HOSTNAME_MISMATCH: return .tlsFailure(.nameMismatch)
            default: return .tlsFailure(.untrustedChain(verifyText(verifyResult)))
            }
        case Int(CURLE_SSL_CONNECT_ERROR.rawValue), Int(CURLE_SSL_CIPHER.rawValue), Int(CURLE_SSL_ISSUER_ERROR.rawValue),
             Int(CURLE_SSL_INVALIDCERTSTATUS.rawValue), Int(CURLE_SSL_CLIENTCERT.rawValue):
            return .tlsFailure(.handshake(curlText(code)))
        case Int(CURLE_ABORTED_BY_CALLBACK.rawValue):
            return .cancelled
        case Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue), Int(CURLE_URL_MALFORMAT.rawValue):
            return .invalidRequest("the URL is not supported")
        default:
            return .failed("libcurl error \(code): \(curlText(code))")
        }
    }

    static func curlText(_ code: Int) -> String {
        String(cString: curl_easy_strerror(CURLcode(UInt32(code))))
    }

    static func verifyText(_ result: Int) -> String {
        String(cString: X509_verify_cert_error_string(result))
    }
}

/// Process-wide libcurl set-up, done once before the first transfer: libcurl is opened then (CLazyLibraries), not at
/// start, and initialised. Nil when ready, else why libcurl could not be loaded.
private enum CurlGlobal {
    static let loadFailure: String? = {
        if let failure = lazylib_load_libcurl() { return String(cString: failure) }
        _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return nil
    }()
}

/// State one transfer's C callbacks write into; passed to them as an `Unmanaged` context.
final class CurlTransfer: Sendable {
    /// Set when the calling task is cancelled; the progress callback then aborts the transfer.
    let cancelled = Atomic<Bool>(false)
    // Guards the bytes and header lines received; written by libcurl's callbacks on the worker thread.
    let received = Mutex<(body: Data, headers: [HTTPHeader])>((Data(), []))
}

/// Owns one `CURL*` easy handle and its connection cache.
///
/// `@unchecked Sendable` because it moves between threads, but it is never shared:
/// it is either in `CurlTransport`'s idle pool (under that lock) or owned by the one
/// transfer that took it out.
final class CurlEasy: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    /// The certificate facts of the last handshake per `ADDRESS:PORT`, for exchanges on a reused connection.
    private var handshakes: [String: ConnectionFacts] = [:]

    init?() {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    func perform(_ request: HTTPRequest, transfer: CurlTransfer, pins: [String], caFile: String?, resolve: [String],
                 cables: Set<String> = []) -> Result<HTTPResponse, TransportError> {
        curl_easy_reset(handle)
        let url = request.url.absoluteString
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard scheme == "https" || scheme == "http" else { return .failure(.invalidRequest("the URL is not supported")) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        var resolveList: UnsafeMutablePointer<curl_slist>?
        defer {
            curl_slist_free_all(headerList)
            curl_slist_free_all(resolveList)
        }
        for field in request.headers {
            headerList = curl_slist_append(headerList, "\(field.name): \(field.value)")
        }
        // No `Expect: 100-continue` round trip, and no Accept header libcurl would add on its own.
        headerList = curl_slist_append(headerList, "Expect:")
        if !request.headers.contains("Accept") { headerList = curl_slist_append(headerList, "Accept:") }
        for entry in resolve { resolveList = curl_slist_append(resolveList, entry) }

        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        check(ccurl_setopt_string(handle, CURLOPT_URL, url))
        check(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        check(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        check(ccurl_setopt_long(handle, CURLOPT_CERTINFO, 1))
        check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(max(1, request.timeout * 1000))))
        check(ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
        check(ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList))
        if let resolveList { check(ccurl_setopt_pointer(handle, CURLOPT_RESOLVE, resolveList)) }
        if let caFile {
            check(ccurl_setopt_string(handle, CURLOPT_CAINFO, caFile))
            check(ccurl_setopt_pointer(handle, CURLOPT_CAPATH, nil))
        }
        if !pins.isEmpty { check(ccurl_setopt_string(handle, CURLOPT_PINNEDPUBLICKEY, pins.joined(separator: ";"))) }
        check(ccurl_setopt_write(handle, curlWriteCallback))
        check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        check(ccurl_setopt_header(handle, curlHeaderCallback))
        check(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        check(ccurl_setopt_xferinfo(handle, curlProgressCallback))
        check(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context))
        switch request.method {
        case .get: check(ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case .head: check(ccurl_setopt_long(handle, CURLOPT_NOBODY, 1))
        default:
            if request.method == .post {
                check(ccurl_setopt_long(handle, CURLOPT_POST, 1))
            } else {
                check(ccurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
            }
            let body = request.body ?? Data()
            check(ccurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies, so the body need not outlive this call.
                check(ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)))
            }
        }
        guard ok else { return .failure(.invalidRequest("libcurl refused the request options")) }

        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            guard ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress) == CURLE_OK else { return CURLE_FAILED_INIT }
            let code = curl_easy_perform(handle)
            // The buffer must not outlive this scope inside the handle.
            _ = ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
            return code
        }
        var facts = connectionFacts(scheme: scheme, pinned: !pins.isEmpty)
        facts.host = request.url.host
        if let peer = facts.peerAddress.flatMap(PeerAddress.init), var link = LocalLink.toward(peer) {
            if cables.contains(link.name) { link = LocalLink(name: link.name, kind: "test cable", staysInThisKernel: false) }
            facts.link = link.recorded
        }
        guard code == CURLE_OK else {
            var verify = 0
            _ = ccurl_getinfo_long(handle, CURLINFO_SSL_VERIFYRESULT, &verify)
            return .failure(CurlTransport.map(code: Int(code.rawValue), verifyResult: verify,
                                              detail: String(nulTerminated: errorBuffer), seenPin: facts.spkiPin))
        }
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        let (body, headers) = transfer.received.withLock { ($0.body, $0.headers) }
        return .success(HTTPResponse(status: status, headers: HTTPHeaders(headers), body: body, connection: facts))
    }

    /// What libcurl says about the connection the last transfer used.
    private func connectionFacts(scheme: String, pinned: Bool) -> ConnectionFacts {
        var ipPointer: UnsafeMutablePointer<CChar>?
        _ = ccurl_getinfo_string(handle, CURLINFO_PRIMARY_IP, &ipPointer)
        let ip = ipPointer.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        var port = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_PRIMARY_PORT, &port)
        var facts = ConnectionFacts(scheme: scheme, peerAddress: ip, peerPort: port == 0 ? nil : port, tlsVerified: false,
                                    tlsVerifyResult: nil, leafSHA256: nil, spkiPin: nil, issuer: nil, pinsEnforced: pinned && scheme == "https")
        guard scheme == "https" else { return facts }
        var verify = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_SSL_VERIFYRESULT, &verify)
        facts.tlsVerifyResult = verify == 0 ? "ok" : CurlTransport.verifyText(verify)
        let key = "\(ip ?? "?"):\(port)"
        let chain = chainPEM()
        if let pem = chain.first, let certificate = ServerCertificate(pem: pem) {
            facts.leafSHA256 = certificate.sha256Hex
            facts.spkiPin = certificate.spkiPin
            facts.issuer = certificate.issuer
            facts.certificateChain = chain.map { ServerCertificate.base64DER(pem: $0) }
            handshakes[key] = facts
        } else if let earlier = handshakes[key] {
            // A reused connection has no new handshake: its certificate is the one its handshake saw.
            facts.leafSHA256 = earlier.leafSHA256
            facts.spkiPin = earlier.spkiPin
            facts.issuer = earlier.issuer
            facts.certificateChain = earlier.certificateChain
        }
        // With VERIFYPEER and VERIFYHOST on, a transfer that completed had its chain and name verified.
        facts.tlsVerified = verify == 0 && facts.leafSHA256 != nil
        return facts
    }

    /// The server's chain as PEM from `CURLINFO_CERTINFO`, leaf first, as the server sent it; empty when the transfer
    /// made no handshake.
    private func chainPEM() -> [String] {
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard ccurl_getinfo_certinfo(handle, &info) == CURLE_OK, let info, info.pointee.num_of_certs > 0,
              let lists = info.pointee.certinfo else { return [] }
        var chain: [String] = []
        for index in 0..<Int(info.pointee.num_of_certs) {
            var node = lists[index]
            while let current = node {
                if let data = current.pointee.data {
                    let line = String(cString: data)
                    if line.hasPrefix("Cert:") {
                        chain.append(String(line.dropFirst("Cert:".count)))
                        break
                    }
                }
                node = current.pointee.next
            }
        }
        return chain
    }
}

// libcurl's callbacks: plain C functions (never closures in main.swift, which Swift 6 would isolate to
// the main actor and crash on libcurl's thread). The context is the transfer's `CurlTransfer`.

private func curlWriteCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    if let data, length > 0 {
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        transfer.received.withLock { $0.body.append(contentsOf: bytes) }
    }
    return length
}

private func curlHeaderCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    transfer.received.withLock { received in
        if line.hasPrefix("HTTP/") {
            // A new status line (after a 1xx): only the final response's headers count.
            received.headers.removeAll()
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { received.headers.append(HTTPHeader(name: name, value: value)) }
        }
    }
    return length
}

private func curlProgressCallback(_ context: UnsafeMutableRawPointer?, _ dltotal: curl_off_t, _ dlnow: curl_off_t,
                                  _ ultotal: curl_off_t, _ ulnow: curl_off_t) -> Int32 {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.cancelled.load(ordering: .relaxed) ? 1 : 0
}
