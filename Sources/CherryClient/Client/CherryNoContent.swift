/// The answer of requests whose success body carries nothing (`204` of a token revoke, emulator controls).
public struct CherryNoContent: Decodable, Sendable, Equatable {
    /// Nothing.
    public init() {}
    /// Ignores whatever the body holds.
    public init(from decoder: any Decoder) throws {}
}
