/// The response type of requests whose success body carries nothing the caller needs.
public struct NoContent: Decodable, Sendable, Equatable {
    public init() {}
    public init(from decoder: Decoder) throws {}
}
