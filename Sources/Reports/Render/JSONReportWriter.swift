import EvidenceModel
import StrictJSON

/// Writes a report as JSON (`growcert-report/v1`, documented in `docs/report-json.md`).
///
/// Keys are sorted and indentation is fixed, so the same model gives the same
/// bytes. Reasons carry their code, parameters and English text, plus the text
/// in the report language when that is not English.
struct JSONReportWriter {
    let model: ReportModel
    let english: ReportStrings
    let localized: ReportStrings?
    let lang: Language
    /// The template SHA-256 when the strings used are not the built-in ones; nil for the built-in ones.
    var customTemplatesSHA256: String? = nil

    func render() -> String {
        let h = model.header
        var header: JSONValue = [
            "campaignId": JSONValue.visible(h.campaignId), "campaignName": JSONValue.visible(h.campaignName), "profile": JSONValue.visible(h.profileId), "appId": JSONValue.visible(h.appId),
            "appVersion": JSONValue.visible(h.appVersion), "build": JSONValue.visible(h.build), "sdkName": JSONValue.visible(h.sdkName), "sdkVersion": JSONValue.visible(h.sdkVersion),
            "project": JSONValue.visible(h.project), "baseUrl": JSONValue.visible(h.baseURL), "toolVersion": JSONValue.visible(h.toolVersion), "evidenceAsOf": JSONValue.visible(h.evidenceAsOf),
            "rulesSha256": JSONValue.visible(h.rulesSHA256), "databaseId": JSONValue.visible(h.databaseId),
        ]
        // Only a campaign that was updated has `updates`, so every other report keeps its bytes.
        if !h.updates.isEmpty, case .object(var o) = header {
            o["updates"] = .array(h.updates.map(\.json))
            header = .object(o)
        }
        let doc: JSONValue = [
            "format": "growcert-report/v1",
            "lang": JSONValue.visible(lang.rawValue),
            "header": header,
            "journalHead": ["seq": .number(String(h.evidenceSeq)), "hash": JSONValue.visible(h.journalHead), "at": JSONValue.visible(h.evidenceAsOf)],
            "verdict": JSONValue.visible(model.campaignVerdict.rawValue),
            "verdictMarks": .array(model.campaignMarks.map(mark)),
            "templates": customTemplatesSHA256.map { sha in
                ["builtIn": false, "templateSha256": JSONValue.visible(sha), "notice": JSONValue.visible(FixedWords.customTemplatesNotice(templateSHA256: sha, lang: .en))]
            } ?? ["builtIn": true],
            "scenarios": .array(model.scenarios.map(scenario)),
            "warnings": .array(model.warnings.map(reason)),
            "signoffs": .array(model.signoffs.map { so in
                ["id": JSONValue.visible(so.id), "report": JSONValue.visible(so.reportId), "role": JSONValue.visible(so.role), "name": JSONValue.visible(so.name), "decision": JSONValue.visible(so.decision),
                 "comment": JSONValue.visibleOrNull(so.comment), "acceptRisk": JSONValue.visibleOrNull(so.acceptRisk), "keyId": JSONValue.visible(so.keyId), "signedAt": JSONValue.visible(so.createdAt),
                 "current": .bool(so.isCurrent), "newerEntries": .number(String(so.newerEntries)), "signedVerdict": JSONValue.visible(so.signedVerdict),
                 "trustedSigner": .bool(so.trustedSigner)]
            }),
        ]
        return doc.prettyText + "\n"
    }

    /// A JSON number when the text is one, else the text as a string.
    private func number(_ text: String) -> JSONValue {
        if case .number? = try? JSONValue.parse(text) { return .number(text) }
        return JSONValue.visible(text)
    }

    private func reason(_ r: Reason) -> JSONValue {
        var o: [String: JSONValue] = [
            "code": JSONValue.visible(r.code.rawValue),
            "verdict": r.verdict.map { JSONValue.visible($0.rawValue) } ?? .null,
            "parameters": .object(r.parameters.mapValues(JSONValue.visible)),
            "text": JSONValue.visible(english.reason(r)),
        ]
        if let localized { o["localizedText"] = JSONValue.visible(localized.reason(r)) }
        return .object(o)
    }

    /// A mark beside a verdict: its code, parameters and English words (`unpinned`, `unanchored: …`).
    private func mark(_ r: Reason) -> JSONValue {
        ["code": JSONValue.visible(r.code.rawValue), "parameters": .object(r.parameters.mapValues(JSONValue.visible)),
         "text": JSONValue.visible(english.mark(r))]
    }

    private func scenario(_ sc: ScenarioReport) -> JSONValue {
        [
            "id": JSONValue.visible(sc.id), "title": JSONValue.visible(sc.title.en), "verdict": JSONValue.visible(sc.verdict.rawValue), "summary": reason(sc.summaryReason),
            "verdictMarks": .array(sc.marks.map(mark)),
            "reasons": .array(sc.reasons.map(reason)),
            "judgedRun": sc.judgedRun.map(run) ?? .null,
            "history": .array(sc.history.map(run)),
            "checks": .array(sc.checks.map { c in
                ["id": JSONValue.visible(c.id), "status": JSONValue.visible(c.status.rawValue), "evidence": JSONValue.visibleOrNull(c.evidenceId), "provenance": JSONValue.visibleOrNull(c.provenance?.rawValue),
                 "certifying": .bool(c.certifying), "durationMs": c.durationMs.map(number) ?? .null, "reason": JSONValue.visibleOrNull(c.reason),
                 "transcriptExcerpt": .array(c.transcriptExcerpt.map(JSONValue.visible)), "transcriptCount": .number(String(c.transcriptCount))]
            }),
            "requirements": .array(sc.requirements.map { r in
                ["kind": JSONValue.visible(r.kind.rawValue), "status": JSONValue.visible(r.status.rawValue), "subject": JSONValue.visible(r.subject), "evidence": JSONValue.visibleOrNull(r.evidenceId),
                 "provenance": JSONValue.visibleOrNull(r.provenance?.rawValue), "reasons": .array(r.reasons.map(reason))]
            }),
            "evidence": .array(sc.evidence.map { e in
                ["id": JSONValue.visible(e.id), "type": JSONValue.visible(e.type.rawValue), "provenance": JSONValue.visible(e.provenance.rawValue),
                 "certifyingProvenance": .bool(e.certifyingProvenance), "retracted": .bool(e.retracted),
                 "retractedReason": JSONValue.visibleOrNull(e.retractedReason), "recordedBy": JSONValue.visible(e.recordedBy), "recordedAt": JSONValue.visible(e.recordedAt),
                 "fields": .array(e.fields.map { ["name": JSONValue.visible($0.name), "value": JSONValue.visible($0.value)] })]
            }),
            "warnings": .array(sc.warnings.map(reason)),
        ]
    }

    private func run(_ r: RunSummary) -> JSONValue {
        [
            "id": JSONValue.visible(r.id), "tester": JSONValue.visible(r.tester), "startedAt": JSONValue.visible(r.startedAt), "finishedAt": JSONValue.visibleOrNull(r.finishedAt),
            "outcome": JSONValue.visibleOrNull(r.outcome?.rawValue), "note": JSONValue.visibleOrNull(r.note), "appBuild": JSONValue.visible(r.appBuild),
            "device": r.device.map { d in
                ["label": JSONValue.visible(d.label), "kind": JSONValue.visible(d.kind.rawValue), "platform": JSONValue.visible(d.platform.rawValue), "model": JSONValue.visible(d.model), "osVersion": JSONValue.visible(d.osVersion)]
            } ?? .null,
            "account": r.accountMasked.map { m in ["masked": JSONValue.visible(m), "label": JSONValue.visibleOrNull(r.accountLabel), "store": JSONValue.visibleOrNull(r.accountStore)] } ?? .null,
        ]
    }
}
