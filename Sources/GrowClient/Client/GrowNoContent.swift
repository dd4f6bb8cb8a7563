/// The response type of requests whose success body carries nothing the caller needs.
package struct GrowNoContent: Decodable, Sendable, Equatable {
    /// An empty value.
    package init() {}
    /// Ignores whatever the body holds.
    package init(from decoder: Decoder) throws {}
}
