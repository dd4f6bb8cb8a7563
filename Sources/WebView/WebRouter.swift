import Evidence
import Foundation
import RFC3339Time
import Reports
import Sandbox
import Services
import StoreProof
import StrictJSON
import Synchronization

/// A request refused: its status and the words the client is told.
struct WebRefusal: Error {
    let status: Int
    let message: String
}

/// Turns each request into a response: checks who sends it and from where, then calls the read-only pages, the
/// JSON API or the share link's writes. Called concurrently on libmicrohttpd's connection threads.
final class WebRouter: Sendable {
    let settings: WebServerSettings
    let access = WebAccess()
    let port = Mutex<UInt16>(0)
    let pages: WebPages

    /// The session cookie's name.
    static let cookieName = "growcert_session"
    /// The largest body of any request: an attachment, at the CLI's default attachment limit.
    static let largestBody = EvidenceStore.defaultAttachmentLimit
    /// A note's body (JSON) at most.
    static let noteBody = 1 << 20
    /// A signed transaction's body (JSON) at most: the JWS limit `evidence add transaction` applies, and room for the JSON.
    static let transactionBody = JWSVerifier.maximumTokenBytes + 4096 + 1024
    /// Any other request's body at most (forms, or none).
    static let smallBody = 16 * 1024

    /// Each path's body limit, asked before the body is read.
    static let bodyLimit: HTTPServer.BodyLimit = { method, path in
        guard method == "POST" else { return smallBody }
        if path.hasSuffix("/attachments") { return largestBody }
        if path.hasSuffix("/transactions") { return transactionBody }
        if path.hasSuffix("/notes") { return noteBody }
        return smallBody
    }

    init(settings: WebServerSettings) {
        self.settings = settings
        pages = WebPages(version: settings.version)
    }

    var baseURL: String { "http://\(settings.bindAddress):\(port.withLock { $0 })/" }

    /// The `Host` values this server answers to: its own address and port (and `localhost` on loopback).
    var allowedHosts: Set<String> {
        let p = port.withLock { $0 }
        var hosts: Set<String> = ["\(settings.bindAddress):\(p)"]
        if settings.isLoopback { hosts.insert("localhost:\(p)") }
        return hosts
    }

    func oversize() -> HTTPServerResponse {
        Self.secured(Self.json(413, Self.errorBody(413, "The request body is larger than this endpoint takes (an attachment: \(Self.largestBody / 1_048_576) MiB, the default of 'evidence add attachment'; a signed transaction: \(Self.transactionBody) bytes; a note: 1 MiB). Nothing was written.")))
    }

    // MARK: - Entry

    func handle(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let api = request.path.hasPrefix("/api/")
        do {
            return Self.secured(try route(request))
        } catch let refusal as WebRefusal {
            return Self.secured(refused(refusal, api: api, request: request))
        } catch {
            let (status, message) = Self.describe(error)
            return Self.secured(refused(WebRefusal(status: status, message: message), api: api, request: request))
        }
    }

    func refused(_ refusal: WebRefusal, api: Bool, request: HTTPServerRequest) -> HTTPServerResponse {
        if api || refusal.status == 401 || refusal.status == 403 && request.method != "GET" {
            return Self.json(refusal.status, Self.errorBody(refusal.status, refusal.message))
        }
        let lang = language(request)
        let html = (try? pages.render("error", ["status": .number(String(refusal.status)), "message": .string(refusal.message)], lang: lang, nav: false))
        return HTTPServerResponse(status: refusal.status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data((html ?? refusal.message).utf8))
    }

    /// An error's status and words: the store's and the store proofs' own words (they never carry a secret).
    static func describe(_ error: Error) -> (Int, String) {
        switch error {
        case let e as EvidenceError:
            switch e {
            case .unknown: return (404, e.description)
            case .invalidValue, .secretRefused, .signingKeyUnusable: return (422, e.description)
            case .fileTooLarge: return (413, e.description)
            case .conflict, .approvalNeedsAcceptedRisk: return (409, e.description)
            default: return (500, e.description)
            }
        case let e as StoreProofError: return (422, "\(e) Nothing was written.")
        case let e as WebError: return (400, e.description)
        default: return (500, "Internal error: \(error)")
        }
    }

    // MARK: - Who and from where

    func route(_ r: HTTPServerRequest) throws -> HTTPServerResponse {
        // DNS rebinding: a page of another site that made its name point at this address still sends its own Host.
        guard let host = r.header("Host")?.lowercased(), allowedHosts.contains(host) else {
            throw WebRefusal(status: 403, message: "Host '\(r.header("Host") ?? "")' is not the address served (\(allowedHosts.sorted().joined(separator: ", "))).")
        }
        let changes = !["GET", "HEAD"].contains(r.method)
        if changes, let origin = r.header("Origin"), !allowedHosts.contains(where: { "http://\($0)" == origin.lowercased() }) {
            throw WebRefusal(status: 403, message: "Origin '\(origin)' is not this server: a state-changing request from another site is refused.")
        }
        let parts = r.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)

        // The printed URL, opened once: the token becomes a session cookie, and the address bar loses it.
        if r.method == "GET", parts == [""], let token = r.query["token"] {
            guard access.isAccessToken(token) else { throw WebRefusal(status: 401, message: "That access token is not this server's.") }
            let session = access.newSession()
            return HTTPServerResponse(status: 303, headers: [
                ("Location", "/"), ("Set-Cookie", "\(Self.cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict"),
            ])
        }
        // A share link's own page and its static files: the token is in the path.
        if parts.first == "share", parts.count >= 2 {
            guard let link = access.shareLink(token: parts[1], now: settings.clock()) else {
                throw WebRefusal(status: 401, message: "This share link is not valid: it expired, was revoked, or the server was restarted. Ask for a new one.")
            }
            guard r.method == "GET" else { throw WebRefusal(status: 405, message: "Only GET here.") }
            if parts.count == 2 { return try sharePage(link, r) }
            if parts.count == 4, parts[2] == "static" { return try staticFile(parts[3]) }
            throw WebRefusal(status: 404, message: "Not found.")
        }
        let principal = try authenticate(r)
        if case .share(let link) = principal {
            return try shareWrite(link, r, parts)
        }
        if changes, case .session(let csrf) = principal {
            let sent = r.header("X-CSRF-Token") ?? Self.form(r.body)["csrf"]
            guard let sent, sent == csrf else {
                throw WebRefusal(status: 403, message: "A request that changes something needs this session's CSRF token (the pages send it).")
            }
        }
        return try ownerRoute(r, parts)
    }

    /// The request's principal: a Bearer token (the access token or a share link's), else the session cookie.
    func authenticate(_ r: HTTPServerRequest) throws -> WebPrincipal {
        if let authorization = r.header("Authorization") {
            guard authorization.hasPrefix("Bearer ") else { throw WebRefusal(status: 401, message: "Send the access token as 'Authorization: Bearer TOKEN'.") }
            let token = String(authorization.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
            if access.isAccessToken(token) { return .bearer }
            if let link = access.shareLink(token: token, now: settings.clock()) { return .share(link) }
            throw WebRefusal(status: 401, message: "That token is not valid here: not the access token, and not a share link in force (expired, revoked, or from before a restart).")
        }
        if let id = Self.cookie(r, Self.cookieName), let csrf = access.csrf(ofSession: id) { return .session(csrf: csrf) }
        throw WebRefusal(status: 401, message: "This server needs its access token: open the URL it printed when it started (that sets a session cookie), or send 'Authorization: Bearer TOKEN'.")
    }

    // MARK: - The owner's pages and API

    func ownerRoute(_ r: HTTPServerRequest, _ parts: [String]) throws -> HTTPServerResponse {
        let lang = language(r)
        /// The path's `*` parts when the request is `method` and its path matches `pattern` (e.g. `runs/*/share`).
        func match(_ method: String, _ pattern: String) -> [String]? {
            let want = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard r.method == method, want.count == parts.count else { return nil }
            var captured: [String] = []
            for (w, p) in zip(want, parts) {
                if w == "*" {
                    guard !p.isEmpty else { return nil }
                    captured.append(p)
                } else if w != p { return nil }
            }
            return captured
        }
        if match("GET", "") != nil { return try page("campaigns", try reading { try pages.campaigns($0) }, r, lang) }
        if let id = match("GET", "campaigns/*")?.first { return try page("campaign", try reading { try pages.campaign($0, id: id) }, r, lang) }
        if let id = match("GET", "runs/*")?.first {
            var context = try reading { try pages.run($0, id: id) }
            context["csrf"] = .string(csrfToken(r) ?? "")
            return try page("run", context, r, lang)
        }
        if let id = match("POST", "runs/*/share")?.first {
            let seconds = try WebError.expirySeconds(Self.form(r.body)["expires"] ?? "30m")
            let (link, url) = try share(runId: id, seconds: seconds)
            return try page("shared", pages.shared(link: link, url: url), r, lang)
        }
        if let id = match("POST", "runs/*/unshare")?.first {
            return try page("unshared", ["run": .string(id), "count": .number(String(access.unshare(runId: id)))], r, lang)
        }
        if let c = match("GET", "blobs/*/*") { return try blob(sha: c[0], itemId: c[1]) }
        if let id = match("GET", "reports/*")?.first { return try report(id) }
        if match("GET", "verify") != nil { return try page("verify", try reading { try pages.verify($0) }, r, lang) }
        if match("GET", "diff") != nil { return try page("diff", try reading { try pages.diff($0, from: r.query["from"], to: r.query["to"]) }, r, lang) }
        if let name = match("GET", "static/*")?.first { return try staticFile(name) }
        if match("GET", "api/campaigns") != nil { return Self.json(200, try reading { .array(try $0.campaigns().map(\.json)) }) }
        if let id = match("GET", "api/campaigns/*")?.first { return Self.json(200, try reading { try WebPages.campaignJSON($0, id: id) }) }
        if let id = match("GET", "api/campaigns/*/status")?.first {
            // The same JSON as `growcert --json status --campaign ID`.
            return Self.json(200, try reading { .array([try StatusService(store: $0).status(try $0.campaign(id)).json]) })
        }
        if let id = match("GET", "api/runs/*")?.first { return Self.json(200, try reading { try WebPages.runJSON($0, id: id) }) }
        if match("GET", "api/verify") != nil { return Self.json(200, try reading { try WebPages.verifyJSON($0) }) }
        if match("GET", "api/diff") != nil {
            guard let from = r.query["from"], let to = r.query["to"] else { throw WebRefusal(status: 400, message: "Give ?from=CAMPAIGN&to=CAMPAIGN.") }
            return Self.json(200, try reading { try WebPages.diff($0, from: from, to: to).json() })
        }
        if let id = match("POST", "api/runs/*/share")?.first {
            let seconds = try WebError.expirySeconds(r.query["expires"] ?? "30m")
            let (link, url) = try share(runId: id, seconds: seconds)
            return Self.json(201, ["url": .string(url), "token": .string(link.token), "expiresAt": .string(RFC3339.format(link.expiresAt))])
        }
        if let id = match("DELETE", "api/runs/*/share")?.first {
            return Self.json(200, ["run": .string(id), "revoked": .number(String(access.unshare(runId: id)))])
        }
        if ["attachments", "notes", "transactions"].contains(where: { match("POST", "api/runs/*/" + $0) != nil }) {
            throw WebRefusal(status: 403, message: "Evidence is added through a run's share link; the access token reads only.")
        }
        throw WebRefusal(status: ["GET", "POST", "DELETE"].contains(r.method) ? 404 : 405, message: "Not found: \(r.method) \(r.path).")
    }

    func share(runId: String, seconds: Int) throws -> (ShareLink, String) {
        let run = try reading { try $0.run(runId) }
        let link = access.share(runId: run.id, expiresAt: settings.clock().addingTimeInterval(TimeInterval(seconds)))
        return (link, baseURL + "share/" + link.token)
    }

    // MARK: - A share link's writes

    func shareWrite(_ link: ShareLink, _ r: HTTPServerRequest, _ parts: [String]) throws -> HTTPServerResponse {
        guard r.method == "POST", parts.count == 4, parts[0] == "api", parts[1] == "runs", ["attachments", "notes", "transactions"].contains(parts[3]) else {
            throw WebRefusal(status: 403, message: "A share link only adds evidence to its run; it reads nothing.")
        }
        guard parts[2] == link.runId else {
            throw WebRefusal(status: 403, message: "This share link adds evidence to run \(link.runId) only, not to run \(parts[2]).")
        }
        let store = try EvidenceStore.open(at: settings.database, actor: link.actor, clock: settings.clock, maskKey: settings.maskKey)
        let intake = EvidenceIntake(store: store, jwsVerifier: settings.jwsVerifier)
        switch parts[3] {
        case "attachments":
            guard let rawName = r.header("X-Growcert-Filename"), !rawName.isEmpty else {
                throw WebRefusal(status: 400, message: "Name the file in the X-Growcert-Filename header (percent-encoded UTF-8). Nothing was written.")
            }
            let filename = rawName.removingPercentEncoding ?? rawName
            try Validate.label(filename, field: "file name")
            let mediaType: String
            if let given = r.header("Content-Type") {
                guard let bare = MediaType.bare(given) else {
                    throw WebRefusal(status: 415, message: "Content-Type '\(given)' is not a media type (type/subtype). Nothing was written.")
                }
                mediaType = bare
            } else {
                mediaType = MediaType.guess(filename: filename)
            }
            let item = try intake.addAttachment(runId: link.runId, bytes: Array(r.body), filename: filename, mediaType: mediaType)
            return Self.json(201, ["id": .string(item.id), "sha256": .optional(item.attachmentSHA256), "mediaType": .string(mediaType)])
        case "notes":
            let text = try Self.jsonField(r, "text")
            let item = try intake.addNote(runId: link.runId, text: text)
            return Self.json(201, ["id": .string(item.id)])
        default:
            let jws = try Self.jsonField(r, "jws")
            let recorded = try intake.addTransaction(runId: link.runId, .appleJWS(Data(jws.utf8)), orderId: nil)
            return Self.json(201, ["id": .string(recorded.item.id), "proof": recorded.proof])
        }
    }

    static func jsonField(_ r: HTTPServerRequest, _ name: String) throws -> String {
        guard let object = try? JSONValue.parse(r.body), let value = object[name]?.stringValue else {
            throw WebRefusal(status: 400, message: "Send a JSON object with a string \"\(name)\". Nothing was written.")
        }
        return value
    }

    // MARK: - Pages, files and reports

    func page(_ name: String, _ context: [String: MustacheValue], _ r: HTTPServerRequest, _ lang: Language) throws -> HTTPServerResponse {
        let html = try pages.render(name, context, lang: lang, nav: true, query: r.query["lang"].map { _ in "?lang=\(lang.rawValue)" } ?? "")
        return HTTPServerResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(html.utf8))
    }

    func sharePage(_ link: ShareLink, _ r: HTTPServerRequest) throws -> HTTPServerResponse {
        let lang = language(r)
        let html = try pages.render("share", pages.share(link: link), lang: lang, nav: false, staticBase: "/share/\(link.token)/static", script: "share.js")
        return HTTPServerResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(html.utf8))
    }

    func staticFile(_ name: String) throws -> HTTPServerResponse {
        guard let text = EmbeddedWebFiles.files["static/" + name] else { throw WebRefusal(status: 404, message: "Not found.") }
        let type = name.hasSuffix(".css") ? "text/css; charset=utf-8" : name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/plain; charset=utf-8"
        return HTTPServerResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "private, max-age=300")], body: Data(text.utf8))
    }

    /// An attachment's stored bytes, by hash, with the media type its item recorded: images and videos inline,
    /// everything else as a download; never run as a page (a sandboxing policy).
    func blob(sha: String, itemId: String) throws -> HTTPServerResponse {
        let (item, bytes) = try reading { store -> (EvidenceItem, [UInt8]?) in
            let item = try store.evidenceItem(itemId)
            return (item, item.attachmentSHA256 == sha ? try store.blob(sha256: sha) : nil)
        }
        guard let bytes, let mediaType = item.mediaType else { throw WebRefusal(status: 404, message: "No attachment \(sha) on item \(itemId).") }
        let filename = item.details(as: AttachmentDetails.self).filename ?? "attachment"
        let encoded = filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "attachment"
        let disposition = (MediaType.showsInline(mediaType) ? "inline" : "attachment") + "; filename*=UTF-8''" + encoded
        return HTTPServerResponse(status: 200, headers: [
            ("Content-Type", mediaType), ("Content-Disposition", disposition), ("Cache-Control", "private, max-age=31536000, immutable"),
            ("Content-Security-Policy", "default-src 'none'; img-src 'self'; media-src 'self'; sandbox"),
        ], body: Data(bytes))
    }

    /// A stored report, its stored bytes; an HTML report's own style elements are allowed by their hashes.
    func report(_ id: String) throws -> HTTPServerResponse {
        let (record, bytes) = try reading { store in (try store.report(id), try store.reportBytes(id)) }
        let types = ["html": "text/html; charset=utf-8", "md": "text/markdown; charset=utf-8", "json": "application/json",
                     "junit": "application/xml", "csv": "text/csv; charset=utf-8"]
        let type = types[record.format] ?? "application/octet-stream"
        var policy = "default-src 'none'; img-src 'self' data:; sandbox"
        if record.format == "html" {
            let hashes = Self.styleHashes(String(decoding: bytes, as: UTF8.self)).map { "'sha256-\($0)'" }
            if !hashes.isEmpty { policy += "; style-src " + hashes.joined(separator: " ") }
        }
        return HTTPServerResponse(status: 200, headers: [("Content-Type", type), ("Content-Security-Policy", policy)], body: Data(bytes))
    }

    /// The base64 SHA-256 of each `<style>` element's text in `html`, for a policy that allows exactly those.
    static func styleHashes(_ html: String) -> [String] {
        var hashes: [String] = []
        var rest = html[...]
        while let open = rest.range(of: "<style>"), let close = rest[open.upperBound...].range(of: "</style>") {
            hashes.append(Data(Digest.sha256(Array(rest[open.upperBound..<close.lowerBound].utf8))).base64EncodedString())
            rest = rest[close.upperBound...]
        }
        return hashes
    }

    // MARK: - Helpers

    func reading<T>(_ body: (EvidenceStore) throws -> T) throws -> T {
        try body(try EvidenceStore.openForReading(at: settings.database, actor: "web view", clock: settings.clock))
    }

    func csrfToken(_ r: HTTPServerRequest) -> String? {
        Self.cookie(r, Self.cookieName).flatMap { access.csrf(ofSession: $0) }
    }

    func language(_ r: HTTPServerRequest) -> Language {
        if let asked = r.query["lang"], let lang = Language(rawValue: asked) { return lang }
        return (r.header("Accept-Language") ?? "").lowercased().hasPrefix("zh") ? .zhHans : .en
    }

    static func cookie(_ r: HTTPServerRequest, _ name: String) -> String? {
        for pair in (r.header("Cookie") ?? "").split(separator: ";") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0] == name { return kv[1] }
        }
        return nil
    }

    /// An `application/x-www-form-urlencoded` body's fields (the first value of each name).
    static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if let name = kv.first, fields[name] == nil { fields[name] = kv.count > 1 ? kv[1] : "" }
        }
        return fields
    }

    static func errorBody(_ status: Int, _ message: String) -> JSONValue {
        ["error": ["status": .number(String(status)), "message": .string(message)]]
    }

    static func json(_ status: Int, _ value: JSONValue) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: [("Content-Type", "application/json")], body: Data((value.prettyText + "\n").utf8))
    }

    /// The page policy: only this server's own files; no inline script or style, no frames, no plugins.
    static let pagePolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// `response` with the headers every answer carries (a policy of its own is kept).
    static func secured(_ response: HTTPServerResponse) -> HTTPServerResponse {
        var r = response
        if r.header("Content-Security-Policy") == nil { r.headers.append(("Content-Security-Policy", pagePolicy)) }
        if r.header("Cache-Control") == nil { r.headers.append(("Cache-Control", "no-store")) }
        r.headers += [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
                      ("Cross-Origin-Resource-Policy", "same-origin")]
        return r
    }
}
