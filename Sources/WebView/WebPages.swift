import Evidence
import Foundation
import QRCode
import RFC3339Time
import Reports
import Services
import StrictJSON

/// The read-only pages' contexts, rendered through the project's Mustache templates with HTML escaping
/// (`web/templates`, embedded as `EmbeddedWebFiles`), in English or Simplified Chinese (`web/strings`).
struct WebPages: Sendable {
    let version: String
    let templates: [String: MustacheTemplate]
    let strings: [Language: MustacheValue]

    init(version: String) {
        self.version = version
        let partials = ["head": EmbeddedWebFiles.files["templates/head.mustache"] ?? "", "foot": EmbeddedWebFiles.files["templates/foot.mustache"] ?? ""]
        var templates: [String: MustacheTemplate] = [:]
        for (name, text) in EmbeddedWebFiles.files where name.hasPrefix("templates/") && name.hasSuffix(".mustache") {
            let page = String(name.dropFirst("templates/".count).dropLast(".mustache".count))
            // The embedded templates are tested to parse (WebPagesTests); one that did not would answer 500.
            templates[page] = try? MustacheTemplate(source: text, partials: partials)
        }
        self.templates = templates
        var strings: [Language: MustacheValue] = [:]
        for lang in Language.allCases {
            let json = (try? JSONValue.parse(EmbeddedWebFiles.files["strings/\(lang.rawValue).json"] ?? "{}")) ?? [:]
            strings[lang] = MustacheValue(json: json)
        }
        self.strings = strings
    }

    /// A page: `context` with the language, its words, the footer's version and the navigation.
    func render(_ name: String, _ context: [String: MustacheValue], lang: Language, nav: Bool, query: String = "",
                staticBase: String = "/static", script: String? = nil) throws -> String {
        guard let template = templates[name] else { throw WebRefusal(status: 500, message: "No page template '\(name)'.") }
        var c = context
        c["lang"] = .string(lang.rawValue)
        c["s"] = strings[lang] ?? .null
        c["version"] = .string(version)
        c["nav"] = .bool(nav)
        c["q"] = .string(query)
        c["staticBase"] = .string(staticBase)
        c["script"] = script.map(MustacheValue.string) ?? .null
        if c["title"] == nil { c["title"] = .string(name) }
        return try template.render(.dictionary(c))
    }

    // MARK: - Contexts

    func campaigns(_ store: EvidenceStore) throws -> [String: MustacheValue] {
        let statuses = try StatusService(store: store).status(of: try store.campaigns())
        return ["title": "growcert", "campaigns": .list(statuses.map { status in
            var c = Self.dictionary(status.json)
            c["id"] = .string(status.campaign.id)
            c["verdictClass"] = .string(status.verdict.key)
            c["scenarios"] = .list(status.scenarios.map { s in
                var d = Self.dictionary(status.json["scenarios"]?.arrayValue?.first { $0["scenario"]?.stringValue == s.id } ?? [:])
                d["verdictClass"] = .string(s.verdict.key)
                return .dictionary(d)
            })
            return .dictionary(c)
        })]
    }

    func campaign(_ store: EvidenceStore, id: String) throws -> [String: MustacheValue] {
        let campaign = try store.campaign(id)
        let status = try StatusService(store: store).status(campaign)
        var c = Self.dictionary(campaign.json)
        c["title"] = .string(campaign.name)
        c["verdict"] = .string(status.verdict.rawValue)
        c["verdictClass"] = .string(status.verdict.key)
        c["scenarios"] = .list(status.scenarios.map { s in
            var d = Self.dictionary(status.json["scenarios"]?.arrayValue?.first { $0["scenario"]?.stringValue == s.id } ?? [:])
            d["verdictClass"] = .string(s.verdict.key)
            d["hasSteps"] = .bool(!s.nextSteps.isEmpty)
            d["nextSteps"] = .list(s.nextSteps.map { step, text in
                ["text": .string(text), "command": .string(step.command), "checks": .list(step.checks.map(MustacheValue.string)),
                 "hasChecks": .bool(!step.checks.isEmpty)]
            })
            return .dictionary(d)
        })
        c["runs"] = .list(try store.runs(campaignId: campaign.id).map { run in
            ["id": .string(run.id), "scenario": .string(run.scenario), "tester": .string(run.tester), "startedAt": .string(run.startedAt),
             "state": .string(Self.state(run))]
        })
        c["reports"] = .list(try store.reports(campaignId: campaign.id).map { .init(json: $0.json) })
        c["signoffs"] = .list(try store.signoffs(campaignId: campaign.id).map { s in
            ["id": .string(s.id), "name": .string(s.name), "role": .string(s.role), "decision": .string(s.decision),
             "reportId": .string(s.reportId), "createdAt": .string(s.createdAt)]
        })
        return c
    }

    static func state(_ run: Run) -> String {
        run.isAbandoned ? "abandoned" : run.outcome?.rawValue ?? "running"
    }

    func run(_ store: EvidenceStore, id: String) throws -> [String: MustacheValue] {
        let run = try store.run(id)
        var c: [String: MustacheValue] = [
            "title": .string(run.id), "id": .string(run.id), "scenario": .string(run.scenario), "campaignId": .string(run.campaignId),
            "tester": .string(run.tester), "startedAt": .string(run.startedAt), "state": .string(Self.state(run)),
        ]
        c["evidence"] = .list(try store.evidence(runId: run.id).map { item in
            var d: [String: MustacheValue] = [
                "id": .string(item.id), "type": .string(item.type.rawValue), "provenance": .string(item.provenance.rawValue),
                "recordedBy": .string(item.recordedBy), "recordedAt": .string(item.recordedAt), "late": .bool(run.isLate(item)),
                "retracted": .bool(item.isRetracted),
            ]
            switch item.type {
            case .attachment:
                let media = item.mediaType ?? "application/octet-stream"
                let blob = "/blobs/\(item.attachmentSHA256 ?? "-")/\(item.id)"
                d["blob"] = .string(blob)
                d["filename"] = .string(item.details(as: AttachmentDetails.self).filename ?? "file")
                d["mediaType"] = .string(media)
                d["size"] = .number(String(item.size ?? 0))
                let shown = MediaType.showsInline(media)
                d["image"] = .bool(shown && media.hasPrefix("image/"))
                d["video"] = .bool(shown && media.hasPrefix("video/"))
                d["file"] = .bool(!shown)
                if let note = item.details(as: AttachmentDetails.self).note { d["text"] = .string(note) }
            case .note:
                d["text"] = .string(item.details(as: NoteDetails.self).text)
            case .transaction:
                let t = item.details(as: TransactionDetails.self)
                d["text"] = .string("\(t.store) transaction \(t.transactionId ?? "?") \(t.productId ?? "")")
            case .receipt:
                let r = item.details(as: ReceiptDetails.self)
                d["text"] = .string("receipt \(r.receiptId ?? "?") for order \(r.orderId ?? "?") (\(r.status ?? "?"))")
            case .checkResult:
                let r = item.details(as: CheckResultDetails.self)
                d["text"] = .string("\(r.checkId ?? "?") \(r.outcome ?? "?")")
            }
            return .dictionary(d)
        })
        return c
    }

    func shared(link: ShareLink, url: String) -> [String: MustacheValue] {
        var c: [String: MustacheValue] = ["title": "share", "run": .string(link.runId), "url": .string(url), "expiresAt": .string(RFC3339.format(link.expiresAt))]
        if let code = try? QRCode(encoding: Array(url.utf8)) {
            // Four modules of quiet zone on each side, as the standard asks.
            c["qrSize"] = .number(String(code.size + 8))
            var cells: [MustacheValue] = []
            for y in 0..<code.size { for x in 0..<code.size where code.isDark(x: x, y: y) { cells.append(["x": .number(String(x + 4)), "y": .number(String(y + 4))]) } }
            c["cells"] = .list(cells)
        }
        return c
    }

    func share(link: ShareLink) -> [String: MustacheValue] {
        ["title": "share", "run": .string(link.runId), "token": .string(link.token), "expiresAt": .string(RFC3339.format(link.expiresAt)),
         "share": .bool(true)]
    }

    func verify(_ store: EvidenceStore) throws -> [String: MustacheValue] {
        var c = Self.dictionary(try Self.verifyJSON(store))
        c["title"] = "verify"
        return c
    }

    func diff(_ store: EvidenceStore, from: String?, to: String?) throws -> [String: MustacheValue] {
        let campaigns = try store.campaigns()
        var c: [String: MustacheValue] = ["title": "diff", "campaigns": .list(campaigns.map {
            ["id": .string($0.id), "name": .string($0.name), "isFrom": .bool($0.id == from), "isTo": .bool($0.id == to)]
        })]
        if let from, let to { c["diff"] = .string(try Self.diff(store, from: from, to: to).markdown()) }
        return c
    }

    // MARK: - JSON twins

    static func campaignJSON(_ store: EvidenceStore, id: String) throws -> JSONValue {
        let campaign = try store.campaign(id)
        var o = campaign.json.objectValue ?? [:]
        o["status"] = try StatusService(store: store).status(campaign).json
        o["runs"] = .array(try store.runs(campaignId: campaign.id).map(\.json))
        o["reports"] = .array(try store.reports(campaignId: campaign.id).map(\.json))
        o["signoffs"] = .array(try store.signoffs(campaignId: campaign.id).map(\.json))
        return .object(o)
    }

    static func runJSON(_ store: EvidenceStore, id: String) throws -> JSONValue {
        let run = try store.run(id)
        var o = run.json.objectValue ?? [:]
        let items = try store.evidence(runId: run.id)
        o["evidence"] = .array(items.map { item in
            var e = item.json.objectValue ?? [:]
            e["late"] = .bool(run.isLate(item))
            return .object(e)
        })
        return .object(o)
    }

    /// `verify`'s result, as `growcert --json verify` words it.
    static func verifyJSON(_ store: EvidenceStore) throws -> JSONValue {
        let result = try VerifyService(store: store).run()
        return ["ok": .bool(result.ok), "entries": .number(String(result.entries)), "head": .optional(result.headHash),
                "integrityCheck": .string(result.integrityCheck),
                "problems": .array(result.problems.map { ["seq": $0.seq.map { .number(String($0)) } ?? .null, "message": .string($0.message)] })]
    }

    /// `report diff --from A --to B`: both campaigns judged now.
    static func diff(_ store: EvidenceStore, from: String, to: String) throws -> ReportDiff {
        let service = ReportService(store: store)
        let a = try store.campaign(from), b = try store.campaign(to)
        return ReportDiff(from: .init(label: a.id, model: try service.model(campaignId: a.id)), to: .init(label: b.id, model: try service.model(campaignId: b.id)))
    }

    static func dictionary(_ json: JSONValue) -> [String: MustacheValue] {
        if case .dictionary(let d) = MustacheValue(json: json) { return d }
        return [:]
    }
}
