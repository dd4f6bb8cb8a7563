/// Why a Mustache template could not be parsed or rendered.
///
/// Parse errors carry the 1-based line and column of the offending tag in the
/// template (or partial) source, so a template author can find it. Errors in
/// a partial are wrapped in `.inPartial` naming the partial.
package indirect enum MustacheError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A tag was opened but its closing delimiter never appears.
    case unclosedTag(opening: String, closing: String, line: Int, column: Int)
    /// A section was opened but never closed.
    case unclosedSection(name: String, line: Int, column: Int)
    /// A closing tag names a section other than the innermost open one.
    case mismatchedClosingTag(found: String, expected: String, line: Int, column: Int)
    /// A closing tag appears with no section open.
    case unexpectedClosingTag(found: String, line: Int, column: Int)
    /// A set-delimiter tag is malformed.
    case invalidDelimiters(tag: String, line: Int, column: Int)
    /// A tag has no name.
    case emptyTag(line: Int, column: Int)
    /// A tag's name has white space inside or an empty part between dots.
    case invalidTagName(name: String, line: Int, column: Int)
    /// Sections nest deeper than the limit.
    case nestingTooDeep(limit: Int, line: Int, column: Int)
    /// A partial could not be parsed.
    case inPartial(name: String, error: MustacheError)
    /// Partials include each other deeper than the limit (usually endless recursion).
    case partialsTooDeep(name: String, limit: Int)
    /// Rendering would produce more output than the limit.
    case outputTooLarge(limit: Int)
    /// Rendering took more steps than the limit (usually sections nested over large lists).
    case tooManySteps(limit: Int)

    /// The message for the template author: what is wrong, where, and what to do.
    package var description: String {
        switch self {
        case .unclosedTag(let opening, let closing, let line, let column):
            return "Unclosed tag '\(opening)' at line \(line), column \(column): add the closing '\(closing)'."
        case .unclosedSection(let name, let line, let column):
            return "Unclosed section '\(name)' opened at line \(line), column \(column): add a closing tag '/\(name)'."
        case .mismatchedClosingTag(let found, let expected, let line, let column):
            return "Closing tag '/\(found)' at line \(line), column \(column) does not match the open section '\(expected)': close '\(expected)' first."
        case .unexpectedClosingTag(let found, let line, let column):
            return "Closing tag '/\(found)' at line \(line), column \(column) has no open section: remove it or open the section '\(found)' before it."
        case .invalidDelimiters(let tag, let line, let column):
            return "Invalid set-delimiter tag '\(tag)' at line \(line), column \(column): write two delimiters without spaces or '=' between '=' signs, e.g. '{{=<% %>=}}'."
        case .emptyTag(let line, let column):
            return "Empty tag at line \(line), column \(column): write a name inside the tag."
        case .invalidTagName(let name, let line, let column):
            return "Invalid tag name '\(name)' at line \(line), column \(column): names have no spaces and no empty parts between dots."
        case .nestingTooDeep(let limit, let line, let column):
            return "Sections nest deeper than \(limit) levels at line \(line), column \(column): flatten the template."
        case .inPartial(let name, let error):
            return "In partial '\(name)': \(error.description)"
        case .partialsTooDeep(let name, let limit):
            return "Partial '\(name)' is included more than \(limit) levels deep: check the partials for endless recursion."
        case .outputTooLarge(let limit):
            return "Rendered output exceeds \(limit) bytes: check the template for sections repeated over large lists."
        case .tooManySteps(let limit):
            return "Rendering exceeded \(limit) steps: check the template for sections nested over large lists."
        }
    }
}
