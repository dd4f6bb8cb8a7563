import EvidenceModel
import StrictJSON

/// The words of a report that growcert fixes, whatever templates it is rendered with: the verdict
/// labels and their meanings, the marks beside a verdict (`unpinned`, `unanchored: …`), the campaign verdict line's label, and the notice that custom templates
/// were used.
///
/// They always come from the built-in strings of the report's language. A user's strings file may
/// repeat them unchanged (a copy of the built-in file loads) but may not change them: `TemplateSet`
/// refuses such a file when it loads it, and `TemplateSet.strings(_:)` puts the built-in words back
/// in any case.
enum FixedWords {
    /// Dotted paths into a strings file; everything under each is fixed.
    static let paths = ["verdict", "verdictMeaning", "verdictMarks", "header.campaignVerdict", "customTemplates"]

    /// The first fixed path (down to a single text) where `custom` differs from `builtIn`, with the custom value; nil when none.
    static func firstChange(in custom: JSONValue, builtIn: JSONValue) -> (path: String, value: String)? {
        for path in paths {
            guard let mine = value(at: path, in: custom) else { continue }
            if let change = difference(mine, value(at: path, in: builtIn), path: path) { return change }
        }
        return nil
    }

    private static func difference(_ mine: JSONValue, _ base: JSONValue?, path: String) -> (path: String, value: String)? {
        if case .object(let fields) = mine, case .object? = base {
            for key in fields.keys.sorted() {
                if let change = difference(fields[key] ?? .null, base?[key], path: path + "." + key) { return change }
            }
            return nil
        }
        return mine == base ? nil : (path, mine.stringValue ?? mine.canonicalText)
    }

    /// `strings` with every fixed path set to its value in `builtIn`.
    static func restore(_ strings: JSONValue, from builtIn: JSONValue) -> JSONValue {
        var out = strings
        for path in paths {
            let parts = path.split(separator: ".").map(String.init)
            out = replacing(out, at: parts[...], with: value(at: path, in: builtIn))
        }
        return out
    }

    private static func value(at path: String, in json: JSONValue) -> JSONValue? {
        var v: JSONValue? = json
        for part in path.split(separator: ".") { v = v?[String(part)] }
        return v
    }

    private static func replacing(_ json: JSONValue, at parts: ArraySlice<String>, with new: JSONValue?) -> JSONValue {
        guard let first = parts.first, case .object(var fields) = json else { return json }
        if parts.count == 1 {
            fields[first] = new
        } else {
            fields[first] = replacing(fields[first] ?? .object([:]), at: parts.dropFirst(), with: new)
        }
        return .object(fields)
    }

    // MARK: The custom-templates notice

    /// The notice a report rendered with custom templates carries, in `lang`, from the built-in strings.
    static func customTemplatesNotice(templateSHA256: String, lang: Language) -> String {
        let builtIn = (try? TemplateSet.embedded.stringsJSON(TemplateSet.stringsFile(lang))) ?? .object([:])
        let text = builtIn["customTemplates"]?["notice"]?.stringValue ?? "Rendered with custom templates (template SHA-256 {sha})."
        return ReportStrings.fill(text, ["sha": templateSHA256], missing: "")
    }

    /// The machine-readable line a custom-template Markdown or HTML report starts with.
    static func customTemplatesComment(templateSHA256: String) -> String {
        "<!-- growcert-templates: custom \(templateSHA256) -->"
    }

    /// `text` (a rendered Markdown or HTML report) with the notice put before everything the template wrote,
    /// where no template can leave it out or comment it away. (An HTML report then starts with the notice
    /// before its doctype; browsers show it first. Its inline `!important` style outranks any style sheet.)
    static func markCustom(_ text: String, format: ReportFormat, lang: Language, templateSHA256: String) -> String {
        let notice = customTemplatesNotice(templateSHA256: templateSHA256, lang: lang)
        let comment = customTemplatesComment(templateSHA256: templateSHA256)
        switch format {
        case .html:
            let banner = "<p class=\"growcert-custom-templates\" role=\"alert\" style=\"display:block !important;visibility:visible !important;"
                + "position:static !important;opacity:1 !important;font-size:1rem !important;color:#000 !important;background:#ffd !important;"
                + "border:2px solid #a60 !important;padding:.5rem !important;\"><strong>⚠ \(TextSafety.html(notice))</strong></p>"
            return comment + "\n" + banner + "\n" + text
        case .md, .junit, .json:
            return comment + "\n\n> **⚠ \(TextSafety.markdown(notice))**\n\n" + text
        }
    }
}
