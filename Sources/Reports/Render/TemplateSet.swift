import EvidenceModel
import StrictJSON

/// The Mustache templates and strings files reports are rendered with.
///
/// `embedded` holds the built-in `templates/` files. `init(files:)` takes a
/// user's own files (`--templates DIR`, read by Services' `ReportTemplates`): any
/// file it lacks falls back to the built-in one, and every file it has is checked
/// up front, so a syntax error is reported with the file and line before anything
/// is rendered.
package struct TemplateSet: Sendable {
    /// Relative path (e.g. `report.md.mustache`, `strings/en.json`) → text.
    let files: [String: String]
    /// Relative path → how errors name the file.
    let origins: [String: String]

    /// The paths a set can hold.
    package static let knownFiles = ["report.md.mustache", "report.html.mustache"] + Language.allCases.map { "strings/\($0.rawValue).json" }

    /// The built-in templates.
    package static let embedded = TemplateSet(
        files: EmbeddedTemplates.files,
        origins: Dictionary(uniqueKeysWithValues: EmbeddedTemplates.files.keys.map { ($0, "templates/\($0) (built-in)") }))

    private init(files: [String: String], origins: [String: String]) {
        self.files = files
        self.origins = origins
    }

    /// A user's templates (`--templates DIR`, read by Services' `ReportTemplates`), by relative path: each file's
    /// text and how errors name it. A known file not given is the built-in one; a name not in `knownFiles` is ignored.
    ///
    /// - Throws: `ReportError` when a file is invalid: a template that does not parse, a strings file that is not a
    ///   JSON object or changes a fixed word. Every file is checked here, before anything is rendered.
    package init(files given: [String: (text: String, origin: String)]) throws {
        var files = EmbeddedTemplates.files
        var origins = TemplateSet.embedded.origins
        for name in Self.knownFiles {
            guard let file = given[name] else { continue }
            files[name] = file.text
            origins[name] = file.origin
        }
        self.init(files: files, origins: origins)
        for name in Self.knownFiles {
            if name.hasSuffix(".mustache") {
                _ = try template(name)
            } else if let change = FixedWords.firstChange(in: try stringsJSON(name), builtIn: try TemplateSet.embedded.stringsJSON(name)) {
                throw ReportError.fixedWordChanged(file: origin(name), key: change.path, value: change.value)
            }
        }
    }

    // MARK: Access

    func origin(_ name: String) -> String { origins[name] ?? name }

    func template(_ name: String) throws -> MustacheTemplate {
        do {
            return try MustacheTemplate(source: files[name] ?? "")
        } catch let e as MustacheError {
            throw ReportError.templateSyntax(file: origin(name), error: e)
        }
    }

    func stringsJSON(_ name: String) throws -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue.parse(files[name] ?? "{}")
        } catch {
            throw ReportError.stringsInvalid(file: origin(name), why: String(describing: error))
        }
        guard value.objectValue != nil else { throw ReportError.stringsInvalid(file: origin(name), why: "the top level is not an object") }
        return value
    }

    static func stringsFile(_ lang: Language) -> String { "strings/\(lang.rawValue).json" }

    static func templateFile(_ format: ReportFormat) -> String? {
        switch format {
        case .md: return "report.md.mustache"
        case .html: return "report.html.mustache"
        case .junit, .json: return nil
        }
    }

    /// The strings of a language, with the built-in ones for any key the set's file lacks.
    func strings(_ lang: Language) throws -> ReportStrings {
        let name = Self.stringsFile(lang)
        let fallback = (try? TemplateSet.embedded.stringsJSON(name)) ?? .object([:])
        return ReportStrings(json: FixedWords.restore(ReportStrings.merge(try stringsJSON(name), over: fallback), from: fallback))
    }

    /// Whether a render of `format` in `lang` uses exactly the built-in templates and strings.
    package func isBuiltIn(format: ReportFormat, lang: Language) -> Bool {
        templateSHA256(format: format, lang: lang) == TemplateSet.embedded.templateSHA256(format: format, lang: lang)
    }

    /// Whether a stored report's `templateSHA256` is that of this growcert's built-in templates for its format and
    /// language (false for custom templates, and for built-in templates of another growcert version).
    package static func isBuiltIn(templateSHA256: String, format: String, lang: String) -> Bool {
        guard let f = ReportFormat(rawValue: format), let l = Language(rawValue: lang) else { return false }
        return templateSHA256 == embedded.templateSHA256(format: f, lang: l)
    }

    /// The files a render of `format` in `lang` uses, in order.
    func filesUsed(format: ReportFormat, lang: Language) -> [String] {
        switch format {
        case .md, .html: return [Self.templateFile(format) ?? "", Self.stringsFile(lang)]
        case .junit: return [Self.stringsFile(lang)]
        case .json: return lang == .en ? [Self.stringsFile(.en)] : [Self.stringsFile(.en), Self.stringsFile(lang)]
        }
    }

    /// SHA-256 over the template and strings files a render of `format` in `lang` uses.
    ///
    /// For each file in order: its relative path, a NUL byte, its length in bytes
    /// as decimal text, a NUL byte, then its bytes. Two renders with the same value
    /// used the same template text.
    package func templateSHA256(format: ReportFormat, lang: Language) -> String {
        var bytes: [UInt8] = []
        for name in filesUsed(format: format, lang: lang) {
            let text = Array((files[name] ?? "").utf8)
            bytes += Array(name.utf8) + [0] + Array(String(text.count).utf8) + [0] + text
        }
        return Digest.sha256Hex(bytes)
    }
}
