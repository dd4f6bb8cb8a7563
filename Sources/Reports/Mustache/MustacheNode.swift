/// One element of a parsed Mustache template.
///
/// Standalone lines are already removed and delimiters already applied, so
/// rendering is a plain walk over these nodes.
indirect enum MustacheNode: Sendable, Equatable {
    /// Literal text.
    case text(String)
    /// The start of a template line: emits the indentation of the enclosing
    /// standalone partials, so every line of a partial is indented as the spec asks.
    case lineStart
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (not escaped).
    case variable(path: [String], escaped: Bool)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(path: [String], inverted: Bool, children: [MustacheNode])
    /// `{{>name}}`, with the indentation it had when it stood alone on its line.
    case partial(name: String, indent: String)
}
