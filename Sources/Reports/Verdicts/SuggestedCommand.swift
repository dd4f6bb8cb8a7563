import StrictJSON

/// The commands a report suggests as next steps, worded as data: `templates/commands.json` holds one Mustache
/// template per command id, and `text(_:_:)` fills one in. No Swift code of the library spells a command line.
///
/// The values are what the report already shows (ids, shell-safe labels: `NextStep.shellWord`), so the text is
/// rendered without escaping; the HTML and Markdown writers escape it where they show it.
package enum SuggestedCommand {
    /// The commands a next step may suggest: each is a key of `templates/commands.json`.
    package enum ID: String, CaseIterable, Sendable {
        case accountAdd, checkRun, checkRunRecording, runFinish, runStart, storeNotificationAdd, transactionAdd, version
    }

    /// Each command's template, by id.
    static let templates: [String: MustacheTemplate] = {
        guard let text = EmbeddedTemplates.files["commands.json"], let json = try? JSONValue.parse(text), case .object(let fields) = json else {
            return [:]
        }
        var out: [String: MustacheTemplate] = [:]
        for (id, value) in fields {
            if let source = value.stringValue, let template = try? MustacheTemplate(source: source) { out[id] = template }
        }
        return out
    }()

    /// The command `id` with `values`; empty for an id `templates/commands.json` does not have (a test checks that
    /// it has every `ID`).
    package static func text(_ id: ID, _ values: [String: MustacheValue]) -> String {
        (try? templates[id.rawValue]?.render(.dictionary(values), escape: { $0 })) ?? ""
    }
}
