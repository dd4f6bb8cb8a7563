/// A Mustache template, parsed once and rendered any number of times.
///
/// Implements the required modules of the Mustache specification
/// (github.com/mustache/spec: comments, delimiters, interpolation, inverted,
/// partials, sections); lambdas and inheritance are not supported. Partials
/// are given up front and parsed with the template, so every syntax error
/// surfaces at `init`. A partial that is referenced but not given renders as
/// the empty string, as the spec requires.
///
/// Rendering is pure: the output depends only on the template, the context
/// and the escaping function. Hostile templates and contexts are bounded by
/// `MustacheLimits` and fail with a `MustacheError` instead of crashing or hanging.
package struct MustacheTemplate: Sendable {
    let nodes: [MustacheNode]
    let partials: [String: [MustacheNode]]
    /// The limits this template was parsed with and renders under.
    package let limits: MustacheLimits

    /// Parses a template and its partials.
    ///
    /// - Parameters:
    ///   - source: the template text.
    ///   - partials: partial templates by the name used in `{{>name}}`.
    ///   - limits: bounds on nesting, partial depth, output size and work.
    /// - Throws: `MustacheError` naming the line and column of the first
    ///   problem; a problem in a partial is wrapped in `.inPartial`.
    package init(source: String, partials: [String: String] = [:], limits: MustacheLimits = .standard) throws {
        self.limits = limits
        self.nodes = try MustacheParser(source: source, limits: limits).parse()
        var parsed: [String: [MustacheNode]] = [:]
        // Sorted, so the error reported for several bad partials is always the same one.
        for name in partials.keys.sorted() {
            guard let text = partials[name] else { continue }
            do {
                parsed[name] = try MustacheParser(source: text, limits: limits).parse()
            } catch let error as MustacheError {
                throw MustacheError.inPartial(name: name, error: error)
            }
        }
        self.partials = parsed
    }

    /// Renders the template against a context.
    ///
    /// - Parameters:
    ///   - context: the bottom of the context stack, usually a `.dictionary`.
    ///   - escape: applied to the text of every `{{name}}` tag (not to
    ///     `{{{name}}}` or `{{&name}}`); HTML escaping by default.
    /// - Throws: `MustacheError` when a limit in `limits` is exceeded.
    package func render(_ context: MustacheValue, escape: (String) -> String = MustacheEscaping.html) throws -> String {
        try withoutActuallyEscaping(escape) { escape in
            var renderer = MustacheRenderer(partials: partials, limits: limits, escape: escape, context: context)
            return try renderer.render(nodes)
        }
    }
}
