/// The response type of requests whose success body carries nothing the caller needs.
public struct GrowNoContent: Decodable, Sendable, Equatable {
    public init() {}
    public init(from decoder: Decoder) throws {}
}
