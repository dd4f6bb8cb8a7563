/// The answer of requests whose success body carries nothing (`204` of a token revoke, emulator controls).
package struct CherryNoContent: Decodable, Sendable, Equatable {
    /// Nothing.
    package init() {}
    /// Ignores whatever the body holds.
    package init(from decoder: any Decoder) throws {}
}
