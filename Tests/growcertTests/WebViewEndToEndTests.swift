import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `growcert serve` and `growcert run share` as a QA engineer and a release manager use them: a real headless
/// Chromium at phone width uploads through a share link, the run's page shows the picture, `evidence list` has it,
/// and `verify` holds after uploads that raced CLI writers.
@Suite("growcert end to end: the web view and share links")
struct WebViewEndToEndTests {
    /// A running `growcert serve --json` over `g`'s database: its URL and token, stopped with SIGTERM.
    final class Serve {
        let running: Running
        let url: String
        let token: String
        let port: UInt16

        init(_ g: Growcert, extra: [String] = []) throws {
            running = try Running(g, Growcert.binary, ["--db", g.db, "serve", "--json"] + extra, env: [:], stdin: nil)
            let line = try running.firstLine()
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
            url = try #require(o["url"])
            token = try #require(o["token"])
            port = UInt16(url.split(separator: ":").last?.dropLast() ?? "") ?? 0
        }

        var pid: Int32 { running.process.processIdentifier }

        func stop() throws -> Outcome {
            running.process.send(signal: SIGTERM)
            return try running.finish()
        }
    }

    /// Where the screenshots of the main pages are kept (not committed): `.build/test-artefacts/web/`.
    static let artefacts = Growcert.packageRoot.appendingPathComponent(".build/test-artefacts/web")

    /// A 160×100 PNG (a red-to-blue gradient), written by Python's zlib (no image library).
    static func png(_ g: Growcert, at path: String) throws {
        let python = try Growcert.tool(["python3"], install: "install python3 to write the test picture")
        let script = """
        import struct, sys, zlib
        def chunk(kind, data): return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
        w, h = 160, 100
        raw = b''.join(b'\\x00' + b''.join(bytes((208 - x, 48, 48 + x)) for x in range(w)) for _ in range(h))
        png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
        open(sys.argv[1], 'wb').write(png)
        """
        let o = try g.execute(python, ["-c", script, path], env: [:])
        try #require(o.code == 0, "\(o)")
    }

    @Test("A phone-width Chromium opens a share link, uploads a PNG from the file input; the run's page shows it and evidence list has it")
    func chromiumUploadsThroughAShareLink() throws {
        let g = try Growcert()
        try g.seed()
        let serve = try Serve(g)
        defer { _ = try? serve.stop() }
        let share = try #require(try g.json(["run", "share", "r1", "--expires", "30m"]) as? [String: String])
        let shareURL = try #require(share["url"])
        #expect(shareURL.hasPrefix(serve.url + "share/"))
        #expect(share["token"].map { shareURL.hasSuffix($0) } == true)
        #expect(share["expiresAt"] != nil)
        let picture = g.path("purchase-sheet.png")
        try Self.png(g, at: picture)

        let driver = try WebDriver(g)
        defer { driver.quit() }
        try driver.open(shareURL)
        #expect(try driver.script("return window.innerWidth") as? Int == 390)
        try driver.element("#files").sendKeys(picture)
        try driver.screenshot("share-page-chosen")
        try driver.element("#upload").click()
        // The page says what was recorded once the server answered 201: wait for that line, not for a time.
        let line = try driver.element("#log li.ok").text()
        #expect(line.contains("purchase-sheet.png"), "\(line)")
        try driver.screenshot("share-page-uploaded")

        let listed = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        let item = try #require(listed.first { ($0["details"] as? [String: Any])?["filename"] as? String == "purchase-sheet.png" }, "\(listed)")
        #expect((item["id"] as? String).map { line.hasSuffix("→ " + $0) } == true, "the page names the recorded item: \(line)")
        #expect(item["mediaType"] as? String == "image/png")
        #expect((item["recordedBy"] as? String)?.hasPrefix("share link ") == true)

        // The release manager: the printed URL once (the session cookie), then the run's page with the thumbnail drawn.
        try driver.open(serve.url + "?token=" + serve.token)
        try driver.screenshot("campaigns")
        try driver.open(serve.url + "runs/r1")
        let width = try driver.asyncScript("""
            const done = arguments[arguments.length - 1];
            const img = document.querySelector('img.thumb');
            if (!img) { done(-1); } else if (img.complete) { done(img.naturalWidth); } else { img.addEventListener('load', () => done(img.naturalWidth)); img.addEventListener('error', () => done(0)); }
            """)
        #expect(width as? Int == 160, "the run's page shows no drawn thumbnail of the upload")
        try driver.screenshot("run", record: "docs/images/web-run-page.png")
        try driver.open(serve.url + "campaigns/c1?lang=zh-Hans")
        try driver.screenshot("campaign-zh-Hans")
        try driver.open(serve.url + "verify")
        #expect(try driver.element("#verify-result").text() == "OK")
        let stopped = try serve.stop()
        #expect(stopped.code == 0, "\(stopped)")
        #expect(try g.run(["verify"]).code == 0)
    }

    @Test("Under 200 concurrent uploads the server's threads and descriptors stay bounded; with CLI writers racing them, verify passes")
    func concurrentUploadsStayBoundedAndVerify() throws {
        let g = try Growcert()
        try g.seed()
        let serve = try Serve(g)
        defer { _ = try? serve.stop() }
        let share = try #require(try g.json(["run", "share", "r1"]) as? [String: String])
        let token = try #require(share["token"])
        let clients = 200
        let body = Data(repeating: 0x41, count: 4096)
        let port = serve.port
        let gate = DispatchSemaphore(value: 0)
        let answers = ConcurrentList()
        let group = DispatchGroup()
        for n in 0..<clients {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let fd = try RawHTTP.connect(port: port)
                    defer { close(fd) }
                    let head = "POST /api/runs/r1/attachments HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\nContent-Type: text/plain\r\nX-Growcert-Filename: upload-\(n).txt\r\nContent-Length: \(body.count + 8)\r\nConnection: close\r\n\r\n"
                    RawHTTP.send(fd, Data(head.utf8) + body)
                    gate.wait()
                    RawHTTP.send(fd, Data(String(format: "%08d", n).utf8))
                    answers.append(RawHTTP.status(fd))
                } catch {
                    answers.append(-1)
                }
            }.start()
        }
        // Wait until the server holds as many uploads at once as it takes (an event, not a delay), then count.
        let limit = 32
        var peak = (threads: 0, fds: 0)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let threads = Self.count("/proc/\(serve.pid)/task"), fds = Self.count("/proc/\(serve.pid)/fd")
            peak = (max(peak.threads, threads), max(peak.fds, fds))
            if threads >= limit { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(peak.threads >= limit, "the server never held \(limit) uploads at once (threads: \(peak.threads))")
        // CLI writers on the same database while the uploads are held and then released.
        let writers = try (0..<4).map { n in try Running(g, Growcert.binary, ["--db", g.db, "evidence", "add", "note", "--run", "r1", "--text", "desk note \(n)"], env: [:], stdin: nil) }
        for _ in 0..<20 {
            peak = (max(peak.threads, Self.count("/proc/\(serve.pid)/task")), max(peak.fds, Self.count("/proc/\(serve.pid)/fd")))
        }
        for _ in 0..<clients { gate.signal() }
        group.wait()
        for w in writers { #expect(try w.finish().code == 0) }
        #expect(peak.threads <= limit + 16, "threads grew with the uploads: \(peak.threads)")
        #expect(peak.fds <= limit + 48, "descriptors grew with the uploads: \(peak.fds)")
        #expect(answers.values.filter { $0 == 201 }.count == clients, "\(answers.values.filter { $0 != 201 })")
        let listed = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(listed.count == clients + 4)
        let verify = try g.run(["verify"])
        #expect(verify.code == 0, "\(verify)")
    }

    @Test("The status API is byte for byte 'growcert --json status'; run share without a server says how to start one")
    func statusTwinAndShareWithoutServer() throws {
        let g = try Growcert()
        try g.seed()
        let refused = try g.run(["run", "share", "r1"])
        #expect(refused.code == 69)
        #expect(refused.stderr == "growcert: No web view of '\(g.db)' is running on this machine, so there is nothing to share the run through. Start one for this database, then share again. Start one with 'growcert serve --bind ADDRESS' (an address the phone can reach, see docs/web.md), then run 'growcert run share' again.\n")
        let badExpiry = try g.run(["run", "share", "r1", "--expires", "3d"])
        #expect(badExpiry.code == 64 && badExpiry.stderr.contains("Expiry '3d' is not a duration from 1m to 24h"), "\(badExpiry)")
        #expect(try g.run(["serve", "--bind", "0.0.0.0"]).code == 64)
        // A non-loopback address is warned about (TEST-NET-1: not this machine's, so the bind then fails with 74).
        let foreign = try g.run(["serve", "--bind", "192.0.2.1"])
        #expect(foreign.code == 74, "\(foreign)")
        #expect(foreign.stderr.hasPrefix("warning: serving on 192.0.2.1: anyone who can reach this address can connect (each request still needs a token), and without TLS the tokens and the evidence cross the network in clear. Serve on a network you trust only (docs/web.md).\ngrowcert: Cannot listen on 192.0.2.1 port 0: Cannot assign requested address.\n"), "\(foreign)")
        let serve = try Serve(g)
        let cli = try g.run(["--json", "status", "--campaign", "c1"])
        let api = try g.execute("/usr/bin/env", ["curl", "-s", "-H", "Authorization: Bearer \(serve.token)", serve.url + "api/campaigns/c1/status"], env: [:])
        #expect(api.stdout == cli.stdout && !cli.stdout.isEmpty, "\(api)\n\(cli)")
        let noToken = try g.execute("/usr/bin/env", ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", serve.url + "api/campaigns"], env: [:])
        #expect(noToken.stdout == "401")
        let unknown = try g.run(["run", "share", "r999"])
        #expect(unknown.code == 65 && unknown.stderr.contains("'r999'"), "\(unknown)")
        let unshared = try g.run(["run", "unshare", "r1"])
        #expect(unshared.stdout == "Revoked 0 share links of run r1.\n", "\(unshared)")
        let stopped = try serve.stop()
        #expect(stopped.code == 0 && stopped.stderr.isEmpty, "\(stopped)")
    }

    static func count(_ folder: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? 0
    }
}

/// Answers collected from many threads.
final class ConcurrentList: @unchecked Sendable {
    private let lock = NSLock()  // guards `items`
    private var items: [Int] = []
    func append(_ value: Int) { lock.lock(); items.append(value); lock.unlock() }
    var values: [Int] { lock.lock(); defer { lock.unlock() }; return items }
}

/// A raw HTTP client over a socket, for requests held half-sent.
enum RawHTTP {
    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard fd >= 0, ok == 0 else { throw E2EFailure("connect: \(String(cString: strerror(errno)))") }
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

    /// The status code of the answer read to the end.
    static func status(_ fd: Int32) -> Int {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data.append(buffer, count: n)
        }
        let line = String(decoding: data.prefix(32), as: UTF8.self)
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -2
    }
}

/// A headless Chromium driven through chromedriver (W3C WebDriver, with curl), at 390 px width like a phone.
final class WebDriver {
    let g: Growcert
    let process: SpawnedProcess
    let port: Int
    let session: String
    let log: String

    init(_ g: Growcert) throws {
        self.g = g
        let driver = try Growcert.tool(["chromedriver"], install: "install the Debian package chromium-driver ('make test' does)")
        log = g.path("chromedriver.log")
        process = try SpawnedProcess(driver, ["--port=0"], stdout: .file(log), stderr: .null)
        do {
            (port, session) = try Self.startSession(g, log: log, process: process)
        } catch {
            process.send(signal: SIGKILL)
            process.waitForExit()
            throw error
        }
    }

    static func startSession(_ g: Growcert, log: String, process: SpawnedProcess) throws -> (Int, String) {
        // chromedriver says which free port it took: wait for that line.
        var found: Int?
        let deadline = Date().addingTimeInterval(60)
        while found == nil, Date() < deadline, process.isRunning {
            let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
            if let r = text.range(of: "started successfully on port ") {
                found = Int(text[r.upperBound...].prefix { $0.isNumber })
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        let port = try #require(found, "chromedriver did not start")
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": [
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--lang=en-US", "--user-data-dir=\(g.path("chromium-web"))"],
            "mobileEmulation": ["deviceMetrics": ["width": 390, "height": 844, "pixelRatio": 2]],
        ] as [String: Any]]]]
        let answer = try Self.call(g, port: port, "POST", "/session", capabilities)
        let session = try #require((answer as? [String: Any])?["sessionId"] as? String, "no WebDriver session: \(String(describing: answer))")
        // Finding an element waits up to 30 s for it to appear: the test waits for the page's event, not a time.
        _ = try call(g, port: port, "POST", "/session/\(session)/timeouts", ["implicit": 30_000, "script": 30_000])
        return (port, session)
    }

    static func call(_ g: Growcert, port: Int, _ method: String, _ path: String, _ body: Any?) throws -> Any? {
        var args = ["curl", "-s", "-X", method, "http://127.0.0.1:\(port)\(path)", "-H", "Content-Type: application/json"]
        if let body { args += ["--data-binary", String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)] }
        let o = try g.execute("/usr/bin/env", args, env: [:])
        let json = try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any]
        if let value = json?["value"] as? [String: Any], let error = value["error"] as? String {
            throw E2EFailure("WebDriver \(method) \(path): \(error): \(value["message"] ?? "")")
        }
        return json?["value"] ?? json?["sessionId"].map { ["sessionId": $0] }
    }

    func call(_ method: String, _ path: String, _ body: Any? = nil) throws -> Any? {
        try Self.call(g, port: port, method, "/session/\(session)\(path)", body)
    }

    func open(_ url: String) throws { _ = try call("POST", "/url", ["url": url]) }

    func script(_ source: String) throws -> Any? { try call("POST", "/execute/sync", ["script": source, "args": []]) }

    func asyncScript(_ source: String) throws -> Any? { try call("POST", "/execute/async", ["script": source, "args": []]) }

    struct Element {
        let driver: WebDriver
        let id: String
        func sendKeys(_ text: String) throws { _ = try driver.call("POST", "/element/\(id)/value", ["text": text]) }
        func click() throws { _ = try driver.call("POST", "/element/\(id)/click", [:]) }
        func text() throws -> String { try driver.call("GET", "/element/\(id)/text") as? String ?? "" }
    }

    func element(_ css: String) throws -> Element {
        let found = try call("POST", "/element", ["using": "css selector", "value": css]) as? [String: Any]
        let id = try #require(found?["element-6066-11e4-a52e-4f735466cecf"] as? String, "no element \(css)")
        return Element(driver: self, id: id)
    }

    /// Saves a screenshot under `.build/test-artefacts/web/NAME.png`; with `GROWCERT_RECORD=1`, `record` (a path in the
    /// package) gets it too (the README's picture).
    func screenshot(_ name: String, record: String? = nil) throws {
        let base64 = try #require(try call("GET", "/screenshot") as? String)
        let png = try #require(Data(base64Encoded: base64))
        try FileManager.default.createDirectory(at: WebViewEndToEndTests.artefacts, withIntermediateDirectories: true)
        try png.write(to: WebViewEndToEndTests.artefacts.appendingPathComponent(name + ".png"))
        if let record, ProcessInfo.processInfo.environment["GROWCERT_RECORD"] == "1" {
            try png.write(to: Growcert.packageRoot.appendingPathComponent(record))
            Issue.record("Recorded \(record). Run again without GROWCERT_RECORD=1.")
        }
    }

    /// Ends the browser and chromedriver (its `/shutdown`; it does not end on SIGTERM while it holds a session).
    func quit() {
        _ = try? Self.call(g, port: port, "DELETE", "/session/\(session)", nil)
        _ = try? g.execute("/usr/bin/env", ["curl", "-s", "http://127.0.0.1:\(port)/shutdown"], env: [:])
        process.send(signal: SIGKILL)
        process.waitForExit()
    }
}
