import EvidenceModel
import Foundation
import StrictJSON

/// The words of one report language, from `templates/strings/<lang>.json`.
struct ReportStrings: Sendable {
    let json: JSONValue
    /// Every string of `json` by its dotted path, where splitting that path at its dots gives back the keys it was made
    /// of: `text(_:)` answers from here with one lookup (a report of 100,000 runs asks it about a million times), and
    /// walks the words only for a path not here.
    private let byPath: [String: String]

    init(json: JSONValue) {
        self.json = json
        var byPath: [String: String] = [:]
        func gather(_ value: JSONValue, keys: [String]) {
            switch value {
            case .string(let text):
                let path = keys.joined(separator: ".")
                if Self.parts(path) == keys { byPath[path] = text }
            case .object(let members):
                for (key, member) in members { gather(member, keys: keys + [key]) }
            default: break
            }
        }
        if case .object(let members) = json { for (key, member) in members { gather(member, keys: [key]) } }
        self.byPath = byPath
    }

    private static func parts(_ path: String) -> [String] {
        path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The text at a dotted path, e.g. `verdict.failed`; the path itself when missing, so a gap shows.
    func text(_ path: String) -> String {
        if let known = byPath[path] { return known }
        var v: JSONValue? = json
        for part in Self.parts(path) { v = v?[part] }
        return v?.stringValue ?? path
    }

    /// The text at `section` → `key`, where the key may itself contain dots.
    func text(_ section: String, _ key: String) -> String {
        json[section]?[key]?.stringValue ?? "\(section).\(key)"
    }

    /// A mark's words beside a verdict (`verdictMarks.<code>`, fixed: a custom strings file cannot change them).
    func mark(_ r: Reason) -> String {
        Self.fill(text("verdictMarks", r.code.rawValue), r.parameters, missing: text("common.notRecorded"))
    }

    /// A reason's text: its template from `reasons`, with `{name}` replaced by parameters.
    ///
    /// `provenanceWhy` is the strings' explanation of the `provenance` parameter; a
    /// missing parameter reads "not recorded".
    func reason(_ r: Reason) -> String {
        var params = r.parameters
        if let p = params["provenance"] { params["provenanceWhy"] = text("provenance", p) }
        if let p = params["required"], params["requiredShort"] == nil { params["requiredShort"] = text("provenanceShort", p) }
        if r.code == .transactionWarning, let w = params["warning"] { params["warning"] = storeWarning(w) }
        if r.code == .privatePeer, let peer = params["peer"] { params["peer"] = recorded(peer) }
        if r.code == .unknownHostedHost, (params["known"] ?? "").isEmpty { params["known"] = text("verdictMarks.namesNone") }
        if r.code == .acceptedRisk {
            if let role = params["role"] { params["role"] = json["signoffs"]?["roles"]?[role]?.stringValue ?? role }
            if let d = params["decision"] { params["decision"] = json["signoffs"]?["decisions"]?[d]?.stringValue ?? d }
        }
        // An acceptance found by transaction id (CherrySub) has no order: its reasons have their own wording.
        if params["orderId"] == nil, params["transactionId"] != nil, let byTransaction = json["reasonsByTransaction"]?[r.code.rawValue]?.stringValue {
            return Self.fill(byTransaction, params, missing: text("common.notRecorded"))
        }
        return Self.fill(text("reasons", r.code.rawValue), params, missing: text("common.notRecorded"))
    }

    /// What to do about a step's reason, with the real cause growcert recorded when it has one
    /// (`nextSteps.cause`: "Recorded cause: {cause}").
    func nextStepText(_ step: NextStep) -> String {
        let what = text("whatToDo", step.code.rawValue)
        guard let cause = step.cause else { return what }
        return what + text("p.space") + Self.fill(text("nextSteps.cause"), ["cause": recorded(cause)], missing: "")
    }

    /// A store proof's warning (recorded in English, as the store proof wrote it) in this language:
    /// the known texts from `storeWarnings`, a revocation from `storeWarningRevoked`; any other as recorded.
    func storeWarning(_ w: String) -> String {
        if let t = json["storeWarnings"]?[w]?.stringValue { return t }
        if let prefix = json["storeWarningRevoked"]?["prefix"]?.stringValue, w.hasPrefix(prefix) {
            return Self.fill(text("storeWarningRevoked.text"), ["at": String(w.dropFirst(prefix.count))], missing: "")
        }
        return w
    }

    /// Words growcert recorded in English in evidence (a check's identity facts: why it is not live-hosted,
    /// its trust basis, its certificates, a private peer), read in this language through the strings'
    /// `recordedWords.phrases` (`en` patterns with `{placeholders}`, whose values are read the same way);
    /// a value no pattern matches, whole or in its `; `-separated parts, stays as recorded.
    func recorded(_ value: String) -> String {
        let phrases = (json["recordedWords"]?["phrases"]?.arrayValue ?? []).compactMap { p -> (String, String)? in
            guard let en = p["en"]?.stringValue, let text = p["text"]?.stringValue else { return nil }
            return (en, text)
        }
        guard !phrases.isEmpty else { return value }
        func read(_ s: String, depth: Int) -> String? {
            for (en, text) in phrases {
                guard let captures = Self.match(en, s) else { continue }
                let params = captures.mapValues { depth < 2 ? (read($0, depth: depth + 1) ?? $0) : $0 }
                return Self.fill(text, params, missing: "")
            }
            return nil
        }
        if let whole = read(value, depth: 0) { return whole }
        let parts = value.components(separatedBy: "; ")
        guard parts.count > 1 else { return value }
        return parts.map { read($0, depth: 0) ?? $0 }.joined(separator: text("p.semicolon"))
    }

    /// The values of `pattern`'s `{placeholders}` when `text` is the pattern filled in (no value holding "; "), else nil.
    static func match(_ pattern: String, _ text: String) -> [String: String]? {
        var names: [String] = []
        var regex = "^"
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            // A value never spans the "; " that separates recorded phrases.
            regex += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + "((?:(?!; ).)+?)"
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        regex += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        guard let re = try? NSRegularExpression(pattern: regex, options: [.dotMatchesLineSeparators]),
              let m = re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        var out: [String: String] = [:]
        for (i, name) in names.enumerated() {
            guard let r = Range(m.range(at: i + 1), in: text) else { return nil }
            out[name] = String(text[r])
        }
        return out
    }

    static func fill(_ template: String, _ params: [String: String], missing: String) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { out += rest[open...]; return out }
            let name = String(after[..<close])
            out += params[name] ?? missing
            rest = after[after.index(after: close)...]
        }
        out += rest
        return out
    }

    /// `top` with every key it lacks taken from `base`, recursively.
    static func merge(_ top: JSONValue, over base: JSONValue) -> JSONValue {
        guard case .object(var t) = top, case .object(let b) = base else { return top }
        for (k, v) in b {
            if let existing = t[k] { t[k] = merge(existing, over: v) } else { t[k] = v }
        }
        return .object(t)
    }
}
