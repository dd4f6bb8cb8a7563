import Evidence
import Foundation
import Sandbox
import Services
import StrictJSON
import Synchronization
import Testing
@testable import WebView

/// A clock the test moves.
final class TestClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_796_330_612))
    var date: Date { now.withLock { $0 } }
    func advance(by seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The web view's security list, each rule as the attack it stops: no token, a foreign Host (DNS rebinding), a
/// foreign Origin, a cookie without its CSRF token, a share link reading or writing another run, an expired or
/// revoked link, a body over its limit, and the headers every answer carries.
@Suite("WebView: the web view's security, as attacks")
struct WebSecurityTests {
    /// A database with campaign c1, two open runs r1 and r2, and a served web view over it with a test clock.
    final class Served: @unchecked Sendable {
        let dir: String
        let database: String
        let server: WebServer
        let port: UInt16
        let now = TestClock()

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-web-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            database = dir + "/e.sqlite"
            let (store, _) = try EvidenceStore.create(at: database, actor: "test")
            let c = try store.createCampaign(NewCampaign(profile: "groovegrow", name: "Spring <b>release</b>", appId: "com.example.app", appVersion: "1", build: "1",
                                                         sdkVersion: "0.0.1", project: "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55",
                                                         baseURL: "https://sandbox.groovegrow.example"))
            _ = try store.addDevice(NewDevice(campaignId: c.id, label: "iphone", kind: "physical", platform: "ios", model: "iPhone 15", osVersion: "18"))
            _ = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann"))
            _ = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Bo"))
            let now = self.now
            let clock: Clock = { now.date }
            server = try WebServer(settings: WebServerSettings(database: database, version: "test", clock: clock))
            try server.start()
            port = UInt16(server.baseURL.split(separator: ":").last?.dropLast() ?? "") ?? 0
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(atPath: dir)
        }

        var bearer: [String: String] { ["Authorization": "Bearer \(server.accessToken)"] }

        func get(_ path: String, host: String? = nil, headers: [String: String] = [:]) throws -> WebAnswer {
            try WebClient.request("GET", path, port: port, host: host, headers: headers)
        }

        func post(_ path: String, headers: [String: String], body: Data = Data()) throws -> WebAnswer {
            try WebClient.request("POST", path, port: port, headers: headers, body: body)
        }

        func evidenceCount(_ run: String) throws -> Int {
            try EvidenceStore.openForReading(at: database, actor: "test").evidence(runId: run).count
        }

        func journalCount() throws -> Int {
            try EvidenceStore.openForReading(at: database, actor: "test").journalCount()
        }

        /// A session cookie and its CSRF token, as a browser gets them from the printed URL and the run page.
        func session() throws -> (cookie: String, csrf: String) {
            let login = try get("/?token=\(server.accessToken)")
            let setCookie = try #require(login.header("Set-Cookie"), "\(login)")
            let cookie = String(setCookie.split(separator: ";")[0])
            let page = try get("/runs/r1", headers: ["Cookie": cookie])
            let marker = "name=\"csrf\" value=\""
            let start = try #require(page.text.range(of: marker), "\(page)")
            let csrf = String(page.text[start.upperBound...].prefix { $0 != "\"" })
            return (cookie, csrf)
        }
    }

    @Test("Requests without a token, or with a wrong one, are refused with 401 and see nothing",
          arguments: ["/", "/campaigns/c1", "/runs/r1", "/api/campaigns", "/api/campaigns/c1/status", "/verify", "/static/web.css"])
    func requestsWithoutTheTokenAreRefused(_ path: String) throws {
        let s = try Served()
        for headers in [[:], ["Authorization": "Bearer wrong"], ["Cookie": "growcert_session=forged"], ["Authorization": "Basic \(s.server.accessToken)"]] {
            let answer = try s.get(path, headers: headers)
            #expect(answer.status == 401, "\(path) \(headers): \(answer)")
            #expect(!answer.text.contains("Spring"), "\(answer)")
        }
        #expect(try s.get(path, headers: s.bearer).status == 200)
    }

    @Test("A Host that is not the address served is refused (DNS rebinding), even with the token")
    func foreignHostIsRefused() throws {
        let s = try Served()
        for host in ["evil.example:\(s.port)", "127.0.0.1", "127.0.0.1:1", "", "localhost.evil.example:\(s.port)"] {
            let answer = try s.get("/api/campaigns", host: host, headers: s.bearer)
            #expect(answer.status == 403, "Host '\(host)': \(answer)")
            #expect(!answer.text.contains("Spring"))
        }
        #expect(try s.get("/api/campaigns", host: "localhost:\(s.port)", headers: s.bearer).status == 200)
    }

    @Test("Opening the printed URL sets an HttpOnly, SameSite=Strict session cookie that then reads the pages")
    func printedURLSetsAStrictSessionCookie() throws {
        let s = try Served()
        let login = try s.get("/?token=\(s.server.accessToken)")
        #expect(login.status == 303)
        #expect(login.header("Location") == "/")
        let cookie = try #require(login.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        #expect(!cookie.contains(s.server.accessToken), "the cookie must not be the access token itself")
        let page = try s.get("/", headers: ["Cookie": String(cookie.split(separator: ";")[0])])
        #expect(page.status == 200 && page.text.contains("Spring &lt;b&gt;release&lt;/b&gt;"), "\(page)")
        #expect(try s.get("/?token=wrong").status == 401)
    }

    @Test("A state-changing request with a foreign Origin is refused; with a cookie it also needs the CSRF token")
    func foreignOriginAndMissingCSRFAreRefused() throws {
        let s = try Served()
        let foreign = try s.post("/api/runs/r1/share", headers: s.bearer.merging(["Origin": "http://evil.example"]) { a, _ in a })
        #expect(foreign.status == 403, "\(foreign)")
        let (cookie, csrf) = try s.session()
        let noToken = try s.post("/api/runs/r1/share", headers: ["Cookie": cookie, "Origin": "http://127.0.0.1:\(s.port)"])
        #expect(noToken.status == 403, "\(noToken)")
        let wrongToken = try s.post("/api/runs/r1/share", headers: ["Cookie": cookie, "X-CSRF-Token": "guess"])
        #expect(wrongToken.status == 403, "\(wrongToken)")
        let foreignWithToken = try s.post("/api/runs/r1/share", headers: ["Cookie": cookie, "X-CSRF-Token": csrf, "Origin": "http://evil.example"])
        #expect(foreignWithToken.status == 403, "\(foreignWithToken)")
        let form = try s.post("/runs/r1/share", headers: ["Cookie": cookie, "Origin": "http://127.0.0.1:\(s.port)", "Content-Type": "application/x-www-form-urlencoded"],
                              body: Data("expires=30m".utf8))
        #expect(form.status == 403, "a form without the csrf field: \(form)")
        let good = try s.post("/api/runs/r1/share", headers: ["Cookie": cookie, "X-CSRF-Token": csrf, "Origin": "http://127.0.0.1:\(s.port)"])
        #expect(good.status == 201, "\(good)")
        let goodForm = try s.post("/runs/r1/share", headers: ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"],
                                  body: Data("csrf=\(csrf)&expires=2h".utf8))
        #expect(goodForm.status == 200 && goodForm.text.contains("<svg class=\"qr\""), "\(goodForm)")
    }

    @Test("A share token reads nothing, writes to no other run, and adds notes and files to its own run with the link's actor")
    func shareTokenOnlyAddsToItsRun() throws {
        let s = try Served()
        let (link, _) = try s.server.share(runId: "r1", seconds: 1800)
        let bearer = ["Authorization": "Bearer \(link.token)"]
        for path in ["/", "/campaigns/c1", "/runs/r1", "/api/campaigns", "/api/runs/r1", "/api/campaigns/c1/status", "/verify", "/static/web.css"] {
            let answer = try s.get(path, headers: bearer)
            #expect(answer.status == 403, "\(path): \(answer)")
            #expect(!answer.text.contains("Spring"))
        }
        let before = try s.journalCount()
        let other = try s.post("/api/runs/r2/notes", headers: bearer.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(#"{"text":"sneaky"}"#.utf8))
        #expect(other.status == 403, "\(other)")
        let otherFile = try s.post("/api/runs/r2/attachments", headers: bearer.merging(["Content-Type": "image/png", "X-Growcert-Filename": "x.png"]) { a, _ in a }, body: Data([1, 2, 3]))
        #expect(otherFile.status == 403, "\(otherFile)")
        let share = try s.post("/api/runs/r1/share", headers: bearer)
        #expect(share.status == 403, "a share link cannot make another link: \(share)")
        #expect(try s.journalCount() == before)
        #expect(try s.evidenceCount("r2") == 0)

        let note = try s.post("/api/runs/r1/notes", headers: bearer.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(#"{"text":"purchase sheet showed"}"#.utf8))
        #expect(note.status == 201, "\(note)")
        let file = try s.post("/api/runs/r1/attachments", headers: bearer.merging(["Content-Type": "image/png", "X-Growcert-Filename": "sheet%20%E5%9B%BE.png"]) { a, _ in a },
                              body: Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(file.status == 201, "\(file)")
        let id = try #require((file.json as? [String: Any])?["id"] as? String)
        let item = try EvidenceStore.openForReading(at: s.database, actor: "test").evidenceItem(id)
        #expect(item.recordedBy == link.actor)
        #expect(item.recordedBy.hasPrefix("share link ") && !item.recordedBy.contains(link.token))
        #expect(item.mediaType == "image/png")
        #expect(item.details(as: AttachmentDetails.self).filename == "sheet 图.png")
        #expect(try s.get("/api/campaigns", headers: s.bearer).status == 200)
        // The access token reads, but does not write evidence: that is the share link's one power.
        let ownerWrite = try s.post("/api/runs/r1/notes", headers: s.bearer.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(#"{"text":"x"}"#.utf8))
        #expect(ownerWrite.status == 403, "\(ownerWrite)")
    }

    @Test("A share link stops working when it expires and when it is revoked; nothing is written")
    func expiredAndRevokedLinksAreRefused() throws {
        let s = try Served()
        let (link, _) = try s.server.share(runId: "r1", seconds: 60)
        let headers = ["Authorization": "Bearer \(link.token)", "Content-Type": "application/json"]
        #expect(try s.get("/share/\(link.token)").status == 200)
        s.now.advance(by: 61)
        let late = try s.post("/api/runs/r1/notes", headers: headers, body: Data(#"{"text":"too late"}"#.utf8))
        #expect(late.status == 401, "\(late)")
        #expect(try s.get("/share/\(link.token)").status == 401)
        let (second, _) = try s.server.share(runId: "r1", seconds: 60)
        #expect(s.server.unshare(runId: "r1") == 1)
        let revoked = try s.post("/api/runs/r1/notes", headers: ["Authorization": "Bearer \(second.token)", "Content-Type": "application/json"], body: Data(#"{"text":"revoked"}"#.utf8))
        #expect(revoked.status == 401, "\(revoked)")
        #expect(try s.evidenceCount("r1") == 0)
    }

    @Test("A finished run's share link adds late notes and attachments only; a transaction is refused and nothing is written")
    func finishedRunsLinkFollowsTheLateEvidenceRule() throws {
        let s = try Served()
        let (link, _) = try s.server.share(runId: "r1", seconds: 1800)
        _ = try EvidenceStore.open(at: s.database, actor: "test").finishRun(id: "r1", outcome: "pass", note: nil)
        let bearer = ["Authorization": "Bearer \(link.token)"]
        let note = try s.post("/api/runs/r1/notes", headers: bearer.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(#"{"text":"remembered later"}"#.utf8))
        #expect(note.status == 201, "\(note)")
        let before = try s.journalCount()
        let jws = try s.post("/api/runs/r1/transactions", headers: bearer.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(#"{"jws":"a.b.c"}"#.utf8))
        #expect(jws.status == 422 || jws.status == 409, "\(jws)")
        #expect(try s.journalCount() == before)
        let run = try s.get("/runs/r1", headers: s.bearer)
        #expect(run.text.contains("late: after the finish"), "\(run)")
    }

    @Test("Bodies are bounded before they are read: a declared length over the limit is answered 413 at once, and nothing is written")
    func oversizeBodiesAreRefusedBeforeTheyAreRead() throws {
        let s = try Served()
        let (link, _) = try s.server.share(runId: "r1", seconds: 1800)
        for (path, length) in [("/api/runs/r1/attachments", 25 * 1_048_576 + 1), ("/api/runs/r1/notes", 2 * 1_048_576), ("/api/runs/r1/transactions", 200_000)] {
            let fd = try WebClient.connect(port: s.port)
            defer { close(fd) }
            // Only the head is sent: the answer arrives without a byte of the body.
            WebClient.send(fd, WebClient.head("POST", path, host: "127.0.0.1:\(s.port)",
                                              headers: ["Authorization": "Bearer \(link.token)", "Content-Type": "image/png", "X-Growcert-Filename": "big.png"], length: length))
            let answer = try WebClient.readAnswer(fd)
            #expect(answer.status == 413, "\(path): \(answer)")
        }
        #expect(try s.evidenceCount("r1") == 0)
    }

    @Test("Every answer carries a strict Content-Security-Policy (no inline script), nosniff and no-referrer")
    func everyAnswerCarriesTheSecurityHeaders() throws {
        let s = try Served()
        let (link, _) = try s.server.share(runId: "r1", seconds: 1800)
        let answers = [try s.get("/", headers: s.bearer), try s.get("/runs/r1", headers: s.bearer), try s.get("/api/campaigns", headers: s.bearer),
                       try s.get("/share/\(link.token)"), try s.get("/"), try s.get("/nowhere", headers: s.bearer), try s.get("/verify", headers: s.bearer),
                       try s.get("/diff?from=c1&to=c1", headers: s.bearer), try s.get("/campaigns/c1", headers: s.bearer)]
        for answer in answers {
            let policy = try #require(answer.header("Content-Security-Policy"), "\(answer)")
            #expect(policy.contains("default-src 'self'") || policy.contains("default-src 'none'"), "\(policy)")
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(policy)")
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
            #expect(answer.header("Referrer-Policy") == "no-referrer")
            // No inline script anywhere: every script is a file of this server.
            #expect(!answer.text.contains("<script>") && !answer.text.contains("onclick="), "\(answer)")
        }
    }

    @Test("Attachments are served by hash with their recorded media type: images inline, anything else as a download, never as a page")
    func attachmentsKeepTheirMediaTypeAndDisposition() throws {
        let s = try Served()
        let (link, _) = try s.server.share(runId: "r1", seconds: 1800)
        var ids: [String: (String, String)] = [:]
        for (name, type) in [("shot.png", "image/png"), ("page.html", "text/html"), ("logo.svg", "image/svg+xml")] {
            let answer = try s.post("/api/runs/r1/attachments", headers: ["Authorization": "Bearer \(link.token)", "Content-Type": type, "X-Growcert-Filename": name],
                                    body: Data("<html><script>alert(1)</script>\(name)</html>".utf8))
            let o = try #require(answer.json as? [String: Any], "\(answer)")
            ids[name] = (try #require(o["id"] as? String), try #require(o["sha256"] as? String))
        }
        for (name, (id, sha)) in ids {
            let answer = try s.get("/blobs/\(sha)/\(id)", headers: s.bearer)
            #expect(answer.status == 200)
            let disposition = try #require(answer.header("Content-Disposition"))
            #expect(disposition.hasPrefix(name == "shot.png" ? "inline" : "attachment"), "\(name): \(disposition)")
            #expect(answer.header("Content-Security-Policy")?.contains("sandbox") == true)
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
        }
        #expect(try s.get("/blobs/\(ids["shot.png"]!.1)/\(ids["shot.png"]!.0)", headers: s.bearer).header("Content-Type") == "image/png")
        // Another item's id under this hash gives nothing: the media type comes only from the item that holds the bytes.
        #expect(try s.get("/blobs/\(ids["shot.png"]!.1)/\(ids["page.html"]!.0)", headers: s.bearer).status == 404)
        #expect(try s.get("/blobs/\(ids["shot.png"]!.1)/\(ids["shot.png"]!.0)").status == 401)
    }

    @Test("The status API is the status service's JSON, and pages escape what a run recorded")
    func statusAPIAndEscaping() throws {
        let s = try Served()
        let answer = try s.get("/api/campaigns/c1/status", headers: s.bearer)
        let store = try EvidenceStore.openForReading(at: s.database, actor: "test")
        let expected = JSONValue.array([try StatusService(store: store).status(try store.campaign("c1")).json]).prettyText + "\n"
        #expect(answer.text == expected)
        let (link, _) = try s.server.share(runId: "r1", seconds: 1800)
        _ = try s.post("/api/runs/r1/notes", headers: ["Authorization": "Bearer \(link.token)"], body: Data(#"{"text":"<script>alert(1)</script>"}"#.utf8))
        let page = try s.get("/runs/r1", headers: s.bearer)
        #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !page.text.contains("<script>alert"), "\(page)")
    }

    @Test("A request to the web view in Chinese gets the Chinese words")
    func chinesePages() throws {
        let s = try Served()
        #expect(try s.get("/?lang=zh-Hans", headers: s.bearer).text.contains("测试活动"))
        #expect(try s.get("/", headers: s.bearer.merging(["Accept-Language": "zh-CN,zh;q=0.9"]) { a, _ in a }).text.contains("测试活动"))
    }

    @Test("The embedded web files are web/'s files: a new file adds its line to EmbeddedWebFiles")
    func embeddedFilesMatchTheFolder() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("web")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { !$0.hasPrefix(".") && !$0.hasSuffix("/") } ?? []
        var onDisk: [String: String] = [:]
        for f in files where !(((try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(f).path)[.type]) as? FileAttributeType) == .typeDirectory) {
            onDisk[f] = try String(contentsOf: root.appendingPathComponent(f), encoding: .utf8)
        }
        #expect(onDisk == EmbeddedWebFiles.files, "add the file's line to EmbeddedWebFiles.files")
        let pages = WebPages(version: "test")
        #expect(pages.templates.count == EmbeddedWebFiles.files.keys.filter { $0.hasPrefix("templates/") }.count, "a template does not parse")
    }
}
