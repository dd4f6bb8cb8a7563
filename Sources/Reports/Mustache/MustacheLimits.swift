/// Bounds that keep a hostile template or context from crashing or hanging the renderer.
///
/// Every limit is checked, and exceeding one is a `MustacheError`, never a
/// crash or a silently truncated report. The defaults are far above what a
/// report template needs.
package struct MustacheLimits: Sendable, Equatable {
    /// The deepest section nesting accepted in one template or partial source.
    package var maximumSectionNesting: Int
    /// The deepest chain of partials including partials (bounds recursion).
    package var maximumPartialDepth: Int
    /// The most bytes of UTF-8 output one render may produce.
    package var maximumOutputBytes: Int
    /// The most work one render may do, counted as template nodes visited plus
    /// contexts examined by name lookups (bounds work that produces no output).
    package var maximumSteps: Int

    /// Creates limits; omitted values take the defaults.
    package init(
        maximumSectionNesting: Int = 256,
        maximumPartialDepth: Int = 64,
        maximumOutputBytes: Int = 64 << 20,
        maximumSteps: Int = 20_000_000
    ) {
        self.maximumSectionNesting = maximumSectionNesting
        self.maximumPartialDepth = maximumPartialDepth
        self.maximumOutputBytes = maximumOutputBytes
        self.maximumSteps = maximumSteps
    }

    /// The default limits.
    package static let standard = MustacheLimits()
}
