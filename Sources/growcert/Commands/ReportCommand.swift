import ArgumentsKit
import Evidence
import Foundation
import Reports
import Services
import StrictJSON

/// `growcert report render | list | show | verify | diff` (diff in `ReportDiffCommand`).
enum ReportCommand {
    /// A render's exit code, decided once for every way of rendering: `--require-certified` exits 1 unless the verdict
    /// rendered is CERTIFIED, `--require-anchor` exits 1 when no outside anchor covers the evidence judged.
    static func exitCode(_ inv: Invocation, _ o: OptionValues<ReportRenderOptions>, verdict: String, model: ReportModel) -> Int32 {
        if o[\.requireCertified], verdict != Verdict.certified.rawValue {
            inv.progress("not certified: --require-certified fails")
            return ExitCode.notCertified
        }
        guard o[\.requireAnchor], !model.header.anchored else { return ExitCode.success }
        inv.progress("unanchored: only this database vouches for it: --require-anchor fails (anchor it: growcert anchor)")
        return ExitCode.notCertified
    }

    static let all = [
        Command(path: ["report", "render"], summary: "judge a campaign and render its certification report (stored, reproducible)",
                options: ReportRenderOptions.self,
                discussion: """
                The whole database is verified first (as 'growcert verify'); if anything does not hold, nothing is judged
                or stored (exit 2). Every rendered report is stored in the database with its SHA-256 and the journal head
                it was judged at; rendering again without new evidence gives the same bytes (and the same stored report).
                With --no-store the report is only rendered (to see the verdict): nothing is written to the database.
                --format all and --lang all render every format × language into the folder --out names (created if
                missing): report.md, report.html, report.zh-Hans.md, …, report.junit.xml, report.json, each stored.
                Sign it with 'growcert signoff --report ID …'. Verdicts: see docs/verdicts.md.
                """) { inv, o in
            let storing = !o[\.noStore]
            // --out is read once: a folder for several reports; for one, a file, where - is standard output, as leaving
            // --out out is (never a file named '-').
            let given = o[\.out]
            let out = given.flatMap { $0 == OutputFile.standardOutputPath ? nil : $0 }
            // Refuse a bad --out before the database is even opened: a refused call changes nothing.
            let several = o.text(\.format) == "all" || o.text(\.lang) == "all"
            if several {
                guard let dir = given else {
                    throw CLIError.usage("--format all and --lang all write several files: give --out DIR, the folder to write them into.", command: "report render")
                }
                guard dir != OutputFile.standardOutputPath else { throw OutputError.folderNotStandardOutput }
                guard !o[\.noStore] else {
                    throw CLIError.usage("--format all and --lang all store every report they write: leave out --no-store, or render one format and language.", command: "report render")
                }
            } else {
                try out.map { try OutputFile(path: $0, force: o[\.force], database: try inv.dbPath).check() }
            }
            let store = storing ? try inv.openStore() : try inv.openStoreForReading()
            let campaign = try store.campaign(try inv.campaignId(store, given: o[\.campaign]))
            let chosenFormat = try o.value(\.format) ?? .one(.md)
            let chosenLang = try o.value(\.lang) ?? .one(.en)
            guard case .one(let format) = chosenFormat, case .one(let lang) = chosenLang else {
                return try ReportCommand.renderAll(inv, o, store: store, campaign: campaign, formats: chosenFormat.cases, langs: chosenLang.cases)
            }
            let templates = try o[\.templates].map { try ReportTemplates.load(directory: $0) } ?? .embedded
            let service = ReportService(store: store, templates: templates)
            let model = try service.judged(campaignId: campaign.id,
                                           verifiedBy: storing ? VerifyService(store: store, jwsVerifier: inv.jwsVerifier, serverTrust: inv.serverTrust) : nil)
            guard storing else {
                let rendered = try service.renderOnly(model, format: format, lang: lang, out: out, force: o[\.force])
                if let out {
                    inv.printRecord(out, ["out": .string(out), "sha256": .string(Digest.sha256Hex(rendered.bytes)), "verdict": .string(rendered.verdict), "stored": .bool(false)])
                } else {
                    inv.console.out(String(decoding: rendered.bytes, as: UTF8.self))
                }
                inv.progress("report not stored (--no-store): campaign \(campaign.id) is \(rendered.verdict); SHA-256 \(Digest.sha256Hex(rendered.bytes))")
                return ReportCommand.exitCode(inv, o, verdict: rendered.verdict, model: model)
            }
            let result = try service.render(model, format: format, lang: lang, out: out, force: o[\.force])
            let (rendered, record, reused) = (result.rendered, result.record, result.reused)
            if let out {
                var o = record.json.objectValue ?? [:]
                o["out"] = .string(out)
                o["reused"] = .bool(reused)
                inv.printRecord(record.id, .object(o))
            } else {
                inv.console.exact(String(decoding: rendered.bytes, as: UTF8.self))  // the report file itself, byte for byte
            }
            inv.progress("report \(record.id)\(reused ? " (same bytes as before)" : ""): campaign \(campaign.id) is \(rendered.verdict); SHA-256 \(record.sha256)"
                         + (ReportCommand.templates(record) == "custom" ? "; rendered with custom templates" : ""))
            return ReportCommand.exitCode(inv, o, verdict: rendered.verdict, model: model)
        },
        Command(path: ["report", "list"], summary: "list stored reports",
                options: ReportListOptions.self) { inv, o in
            let store = try inv.openStoreForReading()
            let list = try store.reports(campaignId: try o[\.campaign].map { try store.campaign($0).id })
            inv.printList(list.map(ReportCommand.json), header: ["ID", "CAMPAIGN", "FORMAT", "LANG", "VERDICT", "TEMPLATES", "SHA-256", "CREATED"],
                          rows: list.map { [$0.id, $0.campaignId, $0.format, $0.lang, $0.verdict, ReportCommand.templates($0),
                                            String($0.sha256.prefix(16)) + "…", $0.createdAt] })
            return ExitCode.success
        },
        Command(path: ["report", "show"], summary: "print a stored report's exact bytes", positionals: ["ID"]) { inv in
            let bytes = try inv.openStoreForReading().reportBytes(try inv.positional(0, "report ID"))
            inv.console.exact(String(decoding: bytes, as: UTF8.self))  // reports are UTF-8: the bytes come out unchanged
            return ExitCode.success
        },
        Command(path: ["report", "verify"], summary: "check that a report file is one stored here, unchanged (exit 2 if not)", positionals: ["FILE"],
                discussion: """
                First compares the database the file names (its journal's first entry hash) with this one: a report of
                another database is refused with exit 3, not called tampered. Then finds the stored report with the
                file's SHA-256, checks the body hash written in its integrity section, checks that the journal head
                written in the file is an entry of this database's journal (exit 2 when the file names none, or one the
                journal does not have: a deleted tail or a rebuilt chain), re-judges the report's evidence at its journal
                entry with this growcert's rules (exit 2 when the stored verdict differs: 'stored CERTIFIED, this
                growcert judges INCOMPLETE'), and lists the sign-offs that cover it: those of the campaign's evidence
                state it was rendered from ('signoff --campaign') and those of this file ('signoff --report'). When the
                campaign has newer evidence, a 'superseded' line gives how many entries and the campaign's verdict now.
                """) { inv in
            let path = try inv.positional(0, "report file")
            let bytes = try inv.readInput(path, limit: 512 * 1_048_576)
            let store = try inv.openStoreForReading()
            let sha = Digest.sha256Hex(bytes)
            let thisDatabase = try store.databaseId()
            if let named = IntegrityCheck.databaseId(ofReport: bytes), named != thisDatabase {
                let words = "\(path) was rendered from another evidence database (\(named)); \(store.path) is database \(thisDatabase ?? "(empty)"). Verify it with --db pointing at the database it came from."
                if inv.json {
                    inv.console.out(JSONValue.object([
                        "ok": .bool(false), "sha256": .string(sha), "wrongDatabase": .bool(true), "databaseId": .string(named),
                        "thisDatabaseId": .optional(thisDatabase), "signoffs": .array([]), "problems": .array([.string(words)]),
                    ]).prettyText + "\n")
                } else {
                    inv.console.out("NOT THIS DATABASE: \(words)\n")
                }
                return ExitCode.wrongDatabase
            }
            let body = IntegrityCheck.bodySHA256(ofReport: bytes)
            var problems: [String] = []
            if let claimed = body.claimed, claimed != body.actual {
                problems.append("the body SHA-256 written in the report (\(claimed)) does not match its content (\(body.actual)): the file was edited")
            }
            let match = try store.reports().first { $0.sha256 == sha }
            if match == nil { problems.append("no report with SHA-256 \(sha) is stored in \(store.path): the file was changed, or comes from another database") }
            // The head printed in the file is an anchor outside the database: it must still be in the chain.
            let heads = IntegrityCheck.journalHeads(ofReport: bytes)
            if heads.isEmpty { problems.append("the file names no journal head, so it cannot be tied to the evidence") }
            for head in heads where try store.journalEntry(hash: head) == nil {
                problems.append("the journal head written in the file (\(head)) is not an entry of the journal in \(store.path): entries were deleted, or the chain was rebuilt")
            }
            if let r = match, !heads.isEmpty, !heads.contains(r.evidenceHead) {
                problems.append("the journal head written in the file is not the one stored for report \(r.id) (\(r.evidenceHead))")
            }
            var verifier = VerifyService(store: store, jwsVerifier: inv.jwsVerifier, serverTrust: inv.serverTrust)
            verifier.rejudgesReports = false  // this report is re-judged below, by name
            let verification = try verifier.run()
            if !verification.ok { problems.append("the database itself does not verify: run 'growcert verify'") }
            if let r = match, verification.ok, let mismatch = try StoredVerdictCheck(store: store).mismatch(r) {
                problems.append("report \(r.id): \(mismatch)")
            }
            let signoffs = try match.map { try SignoffService.signoffs(covering: $0, in: store) } ?? []
            let rules = IntegrityCheck.rulesSHA256(ofReport: bytes)
            let trusted = Set(try store.signers().map(\.keyId))
            var superseded: (newer: Int, verdict: String)?
            if let r = match, problems.isEmpty {
                let newer = try store.newerEvidence(campaignId: r.campaignId, after: r.evidenceSeq)
                if newer > 0 {
                    let now = try ReportService(store: store).model(campaignId: r.campaignId).campaignVerdict
                    superseded = (newer, now.rawValue)
                }
            }
            if inv.json {
                inv.console.out(JSONValue.object([
                    "ok": .bool(problems.isEmpty), "sha256": .string(sha), "report": match.map(ReportCommand.json) ?? .null,
                    "bodySha256": .string(body.actual), "claimedBodySha256": .optional(body.claimed),
                    "journalHeads": .array(heads.map(JSONValue.string)),
                    "rulesSha256": .optional(rules), "databaseId": .optional(thisDatabase),
                    "superseded": superseded.map { ["newerEntries": .number(String($0.newer)), "currentVerdict": .string($0.verdict)] } ?? .null,
                    "signoffs": .array(signoffs.map { s in
                        var o = s.json.objectValue ?? [:]
                        o["trustedSigner"] = .bool(trusted.contains(s.keyId))
                        o["scope"] = .string(s.signed?.coversCampaignState == true ? SignoffStatement.scopeCampaign : SignoffStatement.scopeReport)
                        return .object(o)
                    }),
                    "problems": .array(problems.map(JSONValue.string)),
                ]).prettyText + "\n")
            } else if problems.isEmpty, let r = match {
                var out = "OK: \(path) is report \(r.id) of campaign \(r.campaignId) (\(r.format), \(r.lang)), verdict \(r.verdict),\n"
                out += "    judged at journal entry \(r.evidenceSeq), head \(r.evidenceHead)\n"
                out += "    rules SHA-256 \(rules ?? "not named in the file"); this growcert judges the same verdict; database \(thisDatabase ?? "")\n"
                if !TemplateSet.isBuiltIn(templateSHA256: r.templateSHA256, format: r.format, lang: r.lang) {
                    out += "    rendered with custom templates (template SHA-256 \(r.templateSHA256)), not this growcert's built-in ones: its layout and wording are not growcert's\n"
                }
                if let superseded {
                    out += "    superseded: campaign \(r.campaignId) has \(superseded.newer) newer evidence \(superseded.newer == 1 ? "entry" : "entries") since this report; its verdict is now \(superseded.verdict)\n"
                }
                // Values from the signed statement ('growcert verify' checks the row says the same).
                out += signoffs.isEmpty ? "    not signed yet\n" : signoffs.map { s in
                    let st = s.signed
                    return TextSafety.singleLine("    signed \(st?.decision ?? s.decision) by \(st?.name ?? s.name) (\(st?.role ?? s.role))"
                        + (st?.coversCampaignState == true ? ", the campaign's evidence state" : ", this file") + ", key \(s.keyId)"
                        + (trusted.contains(s.keyId) ? " (trusted signer)" : " (not a registered signer)") + ", \(s.createdAt)"
                        + (s.acceptRisk.map { "; accepted risk: \($0)" } ?? "") + (st?.acceptStale == true ? "; signed although not current" : ""))
                }.joined(separator: "\n") + "\n"
                inv.console.out(out)
            } else {
                inv.console.out("NOT VERIFIED: \(path)\n" + problems.map { "  - \($0)\n" }.joined())
            }
            return problems.isEmpty ? ExitCode.success : ExitCode.tampered
        },
        ReportDiffCommand.command,
    ]

    /// `report render --format all` / `--lang all`: every rendition into the folder `--out`, each stored.
    static func renderAll(_ inv: Invocation, _ o: OptionValues<ReportRenderOptions>, store: EvidenceStore, campaign: Campaign,
                          formats: [ReportFormat], langs: [Language]) throws -> Int32 {
        let dir = try o.required(\.out)
        let templates = try o[\.templates].map { try ReportTemplates.load(directory: $0) } ?? .embedded
        let service = ReportService(store: store, templates: templates)
        let model = try service.judged(campaignId: campaign.id,
                                       verifiedBy: VerifyService(store: store, jwsVerifier: inv.jwsVerifier, serverTrust: inv.serverTrust))
        let written = try service.renderAll(model, renditions: ReportService.renditions(formats: formats, langs: langs), directory: dir,
                                            force: o[\.force])
        if inv.json {
            inv.console.out(JSONValue.array(written.map { w in
                var o = ReportCommand.json(w.result.record).objectValue ?? [:]
                o["out"] = .string(w.path)
                o["reused"] = .bool(w.result.reused)
                return .object(o)
            }).prettyText + "\n")
        } else {
            inv.console.out(written.map { "\($0.result.record.id)  \($0.path)" }.joined(separator: "\n") + "\n")
        }
        let verdict = written.first?.result.rendered.verdict ?? model.campaignVerdict.rawValue
        inv.progress("\(written.count) reports: campaign \(campaign.id) is \(verdict)")
        return exitCode(inv, o, verdict: verdict, model: model)
    }

    /// `built-in` when a stored report was rendered with this growcert's built-in templates, else `custom`.
    static func templates(_ r: ReportRecord) -> String {
        TemplateSet.isBuiltIn(templateSHA256: r.templateSHA256, format: r.format, lang: r.lang) ? "built-in" : "custom"
    }

    /// A stored report's record, with `templates` (`built-in` or `custom`).
    static func json(_ r: ReportRecord) -> JSONValue {
        var o = r.json.objectValue ?? [:]
        o["templates"] = .string(templates(r))
        return .object(o)
    }
}

extension ReportCommand {
    /// `report render`'s options.
    struct ReportRenderOptions: OptionGroup {
        let campaign = CommonOptions.campaign
        let format = Option<Choice<ReportFormat>?>.choiceOrAll("--format", "F", help: "md, html, junit, json, or all", noun: "format", required: true)
        let lang = Option<Choice<Language>?>.choiceOrAll("--lang", "L", help: "en, zh-Hans, or all (default en)", noun: "language")
        let out = Option.string("--out", "FILE", help: "write the report here (default or '-': stdout); a folder with --format all or --lang all; never over the database")
        let force = Option.flag("--force", help: "let --out replace an existing regular file")
        let templates = Option.string("--templates", "DIR", help: "your own report.md.mustache / report.html.mustache / strings/<lang>.json")
        let requireCertified = Option.flag("--require-certified", help: "exit 1 unless the campaign verdict is CERTIFIED")
        let requireAnchor = Option.flag("--require-anchor", help: "exit 1 unless an outside anchor (a timestamp token from 'growcert anchor') covers the evidence")
        let noStore = Option.flag("--no-store", help: "render without recording it: the database is opened read-only")
    }

    /// `report list`'s options.
    struct ReportListOptions: OptionGroup {
        let campaign = Option.string("--campaign", "ID", help: "only this campaign's")
    }
}
