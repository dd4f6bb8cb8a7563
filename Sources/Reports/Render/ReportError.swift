/// Why a report could not be rendered or its templates loaded.
package enum ReportError: Error, CustomStringConvertible, Equatable {
    /// The `--templates` directory does not exist or is not a directory.
    case templateDirectoryMissing(path: String)
    /// A template or strings file exists but cannot be read as UTF-8.
    case unreadable(file: String, why: String)
    /// A template has a Mustache syntax error.
    case templateSyntax(file: String, error: MustacheError)
    /// A template failed while rendering (a limit was exceeded).
    case templateRender(file: String, error: MustacheError)
    /// A strings file is not a JSON object.
    case stringsInvalid(file: String, why: String)
    /// A Markdown or HTML template lacks the integrity marker line, or uses the body hash before it.
    case integrity(file: String, why: String)
    /// A strings file changes a word growcert fixes (a verdict label, its meaning, the campaign verdict label).
    case fixedWordChanged(file: String, key: String, value: String)
    /// A stored report to compare is not a JSON report (`growcert-report/v1`).
    case notAJSONReport(String)

    package var description: String {
        switch self {
        case .templateDirectoryMissing(let path):
            return "The templates directory '\(path)' does not exist. Give a directory holding report.md.mustache, report.html.mustache and/or strings/<lang>.json; missing files fall back to the built-in ones."
        case .unreadable(let file, let why):
            return "Cannot read the template file '\(file)': \(why). Save it as UTF-8 text."
        case .templateSyntax(let file, let error):
            return "Template '\(file)': \(error.description)"
        case .templateRender(let file, let error):
            return "Template '\(file)' could not be rendered: \(error.description)"
        case .stringsInvalid(let file, let why):
            return "Strings file '\(file)' is not valid: \(why). It must be a JSON object like the built-in templates/strings/en.json."
        case .fixedWordChanged(let file, let key, let value):
            return "Strings file '\(file)' sets '\(key)' to '\(value)'. Verdict words, their meanings, the marks beside them and the campaign verdict label are growcert's own, in every language, and cannot be changed by templates: remove the keys \(FixedWords.paths.map { "'\($0)'" }.joined(separator: ", ")) from the file (or keep them exactly as in the built-in strings)."
        case .notAJSONReport(let label):
            return "Report '\(label)' is not a growcert JSON report (growcert-report/v1), so it cannot be compared. Compare JSON reports, or the campaigns themselves."
        case .integrity(let file, let why):
            return "Template '\(file)' \(why). Keep the line '\(IntegrityCheck.marker)' on its own, with the body hash '{{integrity.bodySHA256}}' only after it, as in the built-in template."
        }
    }
}
