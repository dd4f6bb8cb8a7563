import EvidenceModel
import Foundation

/// Turns a `ReportModel` into the Mustache context the Markdown and HTML templates read.
///
/// Every word comes from the language's strings; every value is plain text
/// (the template's escape function makes it safe for its format).
struct ReportContext {
    let model: ReportModel
    let strings: ReportStrings
    let lang: Language
    let reportFile: String

    func value() -> MustacheValue {
        let h = model.header
        // A superseded sign-off is shown as such in the sign-off table, never in the banner.
        let risks = model.signoffs.filter { $0.acceptRisk != nil && $0.isCurrent }
        return .dictionary([
            "lang": .string(lang.rawValue),
            "s": MustacheValue(json: strings.json),
            "header": [
                "campaignId": .string(h.campaignId), "name": .string(h.campaignName), "profile": .string(h.profileTitle.text(lang)),
                "profileId": .string(h.profileId), "appId": .string(h.appId), "appVersion": .string(h.appVersion), "build": .string(h.build),
                "sdk": .string("\(h.sdkName) \(h.sdkVersion)"), "project": .string(h.project), "baseURL": .string(h.baseURL),
                "toolVersion": .string(h.toolVersion), "evidenceAsOf": .string(h.evidenceAsOf), "evidenceSeq": .string(String(h.evidenceSeq)),
                "journalHead": .string(h.journalHead),
                "hasPlayLicenseKey": .bool(h.playLicenseKeySha256 != nil), "playLicenseKeySha256": .string(h.playLicenseKeySha256 ?? ""),
            ],
            "hasCampaignUpdates": .bool(!h.updates.isEmpty),
            "campaignUpdates": .list(h.updates.map(campaignUpdate)),
            "verdict": verdict(model.campaignVerdict, marks: model.campaignMarks),
            "hasAcceptedRisk": .bool(!risks.isEmpty),
            "acceptedRisks": .list(risks.map(signoff)),
            "hasWarnings": .bool(!model.warnings.isEmpty),
            "warnings": .list(model.warnings.map { ["text": .string(strings.reason($0))] }),
            "nextSteps": .list(NextStep.steps(for: model).map(nextStep)),
            "hasNextSteps": .bool(model.campaignVerdict != .certified),
            "summary": .list(model.scenarios.map { s in
                let lines = summaryLines(s)
                return ["id": .string(s.id), "title": .string(s.title.text(lang)), "verdict": verdict(s.verdict, marks: s.marks),
                        "reason": .string(lines.joined(separator: strings.text("p.semicolon"))),
                        // One line each: Markdown escaping turns the newlines into <br> inside the table cell.
                        "reasonBreaks": .string(lines.joined(separator: "\n")),
                        "reasonLines": .list(lines.map { ["text": .string($0)] })]
            }),
            "scenarios": .list(model.scenarios.map(scenario)),
            "hasSignoffs": .bool(!model.signoffs.isEmpty),
            "signoffs": .list(model.signoffs.map(signoff)),
            "integrity": [
                "bodySHA256": .string(IntegrityCheck.placeholder),
                "journalHead": .string(h.journalHead),
                "evidenceSeq": .string(String(h.evidenceSeq)),
                "evidenceAsOf": .string(h.evidenceAsOf),
                "rulesSHA256": .string(h.rulesSHA256),
                "toolVersion": .string(h.toolVersion),
                "databaseId": .string(h.databaseId),
                // The commands themselves are worded in the templates; the context gives their values.
                "reportFile": .string(reportFile),
                "verifyStandard": .string("awk '/\(IntegrityCheck.marker)/{exit} {print}' \(reportFile) | sha256sum"),
            ],
        ])
    }

    /// One change of the campaign: who, when, what changed (each field from → to), and why.
    func campaignUpdate(_ u: CampaignUpdate) -> MustacheValue {
        let format = strings.json["campaignUpdates"]?["change"]?.stringValue ?? "{field} {from} → {to}"
        let what = u.changes.map { c in
            ReportStrings.fill(format, ["field": strings.json["campaignUpdates"]?["field"]?[c.field]?.stringValue ?? c.label,
                                        "from": "'\(c.shown(c.from))'", "to": "'\(c.shown(c.to))'"], missing: "")
        }.joined(separator: "; ")
        return ["id": .string(u.id), "by": .string(u.updatedBy), "at": .string(u.updatedAt), "what": .string(what),
                "hasNote": .bool(!(u.note ?? "").isEmpty), "note": .string(u.note ?? "")]
    }

    /// A verdict as templates show it. Its marks are part of `text` itself, so that every template that shows the
    /// verdict (a custom one too) shows them beside it: `CERTIFIED (unpinned; unanchored: only this database vouches for it)`.
    func verdict(_ v: Verdict, marks: [Reason] = []) -> MustacheValue {
        let word = strings.text("verdict.\(v.key)")
        let text = marks.isEmpty ? word
            : word + strings.text("p.open") + marks.map(strings.mark).joined(separator: strings.text("p.semicolon")) + strings.text("p.close")
        return ["key": .string(v.key), "code": .string(v.rawValue), "text": .string(text),
                "meaning": .string(strings.text("verdictMeaning.\(v.key)")), "hasMarks": .bool(!marks.isEmpty)]
    }

    /// The summary of a scenario's reasons, worst first: one line per reason, except that reasons of one
    /// kind (same code, same provenance) are folded into one line that says how many there are and what they share.
    func summaryLines(_ s: ScenarioReport) -> [String] {
        var groups: [(key: String, reasons: [Reason])] = []
        for r in s.reasons {
            let key = r.code.rawValue + "|" + (r.parameters["provenance"] ?? "") + "|" + (r.parameters["required"] ?? "")
            if let i = groups.firstIndex(where: { $0.key == key }) { groups[i].reasons.append(r) } else { groups.append((key, [r])) }
        }
        if groups.isEmpty { return [strings.reason(s.summaryReason)] }
        return groups.map { g in
            let first = g.reasons[0]
            guard g.reasons.count > 1 else { return strings.reason(first) }
            var params = first.parameters
            params["count"] = String(g.reasons.count)
            params["text"] = strings.reason(first)
            if let p = params["provenance"] { params["provenanceShort"] = strings.text("provenanceShort", p); params["provenanceWhy"] = strings.text("provenance", p) }
            if let p = params["required"] { params["requiredShort"] = strings.text("provenanceShort", p) }
            let template = strings.json["fold"]?[first.code.rawValue]?.stringValue ?? strings.text("fold", "other")
            return ReportStrings.fill(template, params, missing: strings.text("common.notRecorded"))
        }
    }

    /// The single line a CERTIFIED scenario shows.
    func summaryLine(_ s: ScenarioReport) -> String { summaryLines(s).joined(separator: strings.text("p.semicolon")) }

    func nextStep(_ n: NextStep) -> MustacheValue {
        .dictionary([
            "scenarioId": .string(n.scenarioId), "scenario": .string(n.scenarioTitle.text(lang)), "verdict": verdict(n.verdict),
            "code": .string(n.code.rawValue), "text": .string(strings.nextStepText(n)),
            "hasChecks": .bool(!n.checks.isEmpty), "checks": .string(n.checks.joined(separator: strings.text("p.comma"))),
            "command": .string(n.command),
        ])
    }

    func scenario(_ s: ScenarioReport) -> MustacheValue {
        let reasons = s.verdict == .certified ? [] : s.reasons
        return .dictionary([
            "id": .string(s.id), "title": .string(s.title.text(lang)), "expected": .string(s.expected.text(lang)),
            "verdict": verdict(s.verdict, marks: s.marks), "reasonLine": .string(summaryLine(s)),
            "hasReasons": .bool(!reasons.isEmpty),
            "reasons": .list(reasons.map { ["text": .string(strings.reason($0)), "verdictKey": .string($0.verdict?.key ?? "")] }),
            "hasRun": .bool(s.judgedRun != nil), "run": s.judgedRun.map(run) ?? .null,
            // Made one run at a time as the section renders: a campaign's history can be 100,000 runs.
            "hasHistory": .bool(!s.history.isEmpty), "history": .lazyList(MustacheLazyList(count: s.history.count) { [self] in run(s.history[$0]) }),
            "hasChecks": .bool(!s.checks.isEmpty), "checks": .list(s.checks.map(check)),
            "hasRequirements": .bool(!s.requirements.isEmpty), "requirements": .list(s.requirements.map(requirement)),
            "hasEvidence": .bool(!s.evidence.isEmpty), "evidence": .list(s.evidence.map(evidence)),
            "hasWarnings": .bool(!s.warnings.isEmpty), "warnings": .list(s.warnings.map { ["text": .string(strings.reason($0))] }),
        ])
    }

    func run(_ r: RunSummary) -> MustacheValue {
        let none = strings.text("common.none")
        let comma = strings.text("p.comma")
        let device = r.device.map {
            $0.label + strings.text("p.dash") + [strings.text("deviceKind.\($0.kind.rawValue)"), $0.platform.rawValue, $0.model, $0.osVersion].joined(separator: comma)
        } ?? none
        let account = r.accountMasked.map { masked in
            [masked, r.accountStore, r.accountLabel].compactMap { $0 }.joined(separator: comma)
        } ?? strings.text("run.noAccount")
        let outcomeKey = r.outcome?.rawValue ?? "open"
        return .dictionary([
            "id": .string(r.id), "device": .string(device), "appBuild": .string(r.appBuild), "account": .string(account), "tester": .string(r.tester),
            "started": .string(r.startedAt), "finished": .string(r.finishedAt ?? strings.text("run.unfinished")),
            "outcome": .string(strings.text("outcome.\(outcomeKey)")), "outcomeKey": .string(outcomeKey),
            "hasNote": .bool(!(r.note ?? "").isEmpty), "note": .string(r.note ?? ""),
        ])
    }

    func check(_ c: CheckReport) -> MustacheValue {
        let none = strings.text("common.none")
        let more = c.transcriptCount - c.transcriptExcerpt.count
        return .dictionary([
            "id": .string(c.id), "title": .string(c.title?.text(lang) ?? c.id),
            "status": .string(checkStatus(c)), "statusKey": .string(c.status == .passed && !c.certifying ? "not-certifying" : c.status.rawValue),
            "duration": .string(c.durationMs.map { "\(MustacheValue.decimalText($0)) ms" } ?? none),
            "provenance": .string(c.provenance?.rawValue ?? none),
            "provenanceWhy": .string(c.provenance.map { strings.text("provenance", $0.rawValue) } ?? ""),
            "certifying": .bool(c.certifying),
            "reason": .string(c.reason ?? none),
            "transcript": .list(c.transcriptExcerpt.map { ["line": .string($0)] }),
            "hasTranscript": .bool(!c.transcriptExcerpt.isEmpty),
            "more": .string(more > 0 ? "+\(more) \(strings.text("check.moreExchanges"))" : ""),
        ])
    }

    /// `passed` only for a pass that can certify; a pass on the emulator (or any provenance that cannot certify) says so.
    func checkStatus(_ c: CheckReport) -> String {
        guard c.status == .passed, !c.certifying else { return strings.text("checkStatus", c.status.rawValue) }
        return strings.json["checkStatusNotCertifying"]?[c.provenance?.rawValue ?? "other"]?.stringValue ?? strings.text("checkStatusNotCertifying", "other")
    }

    func requirement(_ r: RequirementReport) -> MustacheValue {
        let none = strings.text("common.none")
        let detail = r.reasons.map(strings.reason).joined(separator: strings.text("p.semicolon"))
        return .dictionary([
            "kind": .string(strings.json["requirement"]?["kind"]?[r.kind.rawValue]?.stringValue ?? r.kind.rawValue),
            "status": .string(strings.text("requirementStatus", r.status.rawValue)), "statusKey": .string(r.status.rawValue),
            "subject": .string(r.subject.isEmpty ? none : r.subject),
            "provenance": .string(r.provenance?.rawValue ?? none),
            "evidenceId": .string(r.evidenceId ?? none),
            "detail": .string(detail),
        ])
    }

    func evidence(_ e: EvidenceSummary) -> MustacheValue {
        let attachment = e.attachment.map { a -> MustacheValue in
            return .dictionary([
                "hasImage": .bool(a.inlineImage != nil),
                "dataURI": .string(a.inlineImage.map { "data:\($0.mediaType);base64," + Data($0.bytes).base64EncodedString() } ?? ""),
                "alt": .string(strings.text("attachment.thumbnail") + strings.text("p.colon") + (a.filename ?? e.id)),
                "exportNote": .string(strings.text("attachment", a.inlineImage != nil ? "inline" : a.notInline.rawValue)),
                "exportName": .string(Self.exportName(a, id: e.id)),
            ])
        }
        return .dictionary([
            "id": .string(e.id), "type": .string(strings.text("evidenceType", e.type.rawValue)), "typeCode": .string(e.type.rawValue),
            "provenance": .string(e.provenance.rawValue),
            "hasAttachment": .bool(attachment != nil), "attachment": attachment ?? .null,
            "certifies": .string(strings.text(e.certifyingProvenance ? "evidence.certifies" : "evidence.doesNotCertify")),
            "certifyingKey": .string(e.certifyingProvenance ? "yes" : "no"),
            "fields": .list(e.fields.map { ["name": .string(strings.text("field", $0.name)), "value": .string(fieldValue($0))] }),
            "recordedBy": .string(e.recordedBy), "recordedAt": .string(e.recordedAt),
            "retracted": .bool(e.retracted), "retractedReason": .string(e.retractedReason ?? ""),
        ])
    }

    /// A field's value with the words growcert wrote translated: a check's outcome, a target's kind.
    func fieldValue(_ f: EvidenceSummary.Field) -> String {
        switch f.name {
        case CheckResultDetails.Key.outcome.rawValue:
            return strings.json["checkStatus"]?[f.value]?.stringValue ?? f.value
        case CheckResultDetails.Key.target.rawValue:
            for kind in ["hosted", "emulator"] where f.value.hasSuffix(" (\(kind))") {
                return String(f.value.dropLast(kind.count + 3)) + strings.text("p.open") + strings.text("targetKind", kind) + strings.text("p.close")
            }
            return f.value
        case CheckResultDetails.Key.notLiveHosted.rawValue, CheckResultDetails.Key.trustBasis.rawValue,
             CheckResultDetails.Key.identityWarning.rawValue, CheckResultDetails.Key.certificate.rawValue:
            return strings.recorded(f.value)
        case TransactionDetails.Key.warnings.rawValue:
            // Each warning as the store proof wrote it (a warning holds "; " itself, so they are found whole).
            var text = f.value
            for case (let en, .string(let local)) in strings.json["storeWarnings"]?.objectValue ?? [:] where en != local {
                text = text.replacingOccurrences(of: en, with: local)
            }
            return text
        case ReceiptDetails.Key.status.rawValue:
            return strings.json["receiptStatus"]?[f.value]?.stringValue ?? f.value
        case "attachment", TransactionDetails.Key.signedPayload.rawValue, ReceiptDetails.Key.raw.rawValue:
            // Written by growcert as "…, N bytes, SHA-256 …": only the word and the separators are words.
            return f.value.replacingOccurrences(of: " bytes, ", with: " " + strings.text("attachment.bytes") + ", ")
                .replacingOccurrences(of: ", ", with: strings.text("p.comma"))
        default:
            return f.value
        }
    }

    /// A file name for `evidence export --out`: the recorded name when it is a plain one, else the item id.
    static func exportName(_ a: AttachmentSummary, id: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        if let name = a.filename, !name.isEmpty, name.count <= 80, !name.hasPrefix("-"), !name.hasPrefix("."), name.allSatisfy(allowed.contains) {
            return name
        }
        return id + (a.mediaType?.lowercased() == "image/png" ? ".png" : a.isImage ? ".jpg" : ".bin")
    }

    func signoff(_ s: SignoffSummary) -> MustacheValue {
        .dictionary([
            "id": .string(s.id), "report": .string(s.reportId),
            "role": .string(strings.json["signoffs"]?["roles"]?[s.role]?.stringValue ?? s.role), "name": .string(s.name),
            "decision": .string(strings.json["signoffs"]?["decisions"]?[s.decision]?.stringValue ?? s.decision),
            "decisionKey": .string(s.decision),
            "comment": .string(s.comment ?? strings.text("common.none")), "hasRisk": .bool(s.acceptRisk != nil), "acceptRisk": .string(s.acceptRisk ?? ""),
            "keyId": .string(s.keyId), "time": .string(s.createdAt),
            "current": .bool(s.isCurrent),
            "superseded": .string(ReportStrings.fill(strings.text("signoffs.superseded"),
                                                     ["verdict": Verdict(rawValue: s.signedVerdict).map { strings.text("verdict.\($0.key)") } ?? s.signedVerdict,
                                                      "count": String(s.newerEntries)],
                                                     missing: strings.text("common.notRecorded"))),
            "signer": .string(strings.text(s.trustedSigner ? "signoffs.trusted" : "signoffs.untrusted")),
            "trusted": .bool(s.trustedSigner),
        ])
    }
}
