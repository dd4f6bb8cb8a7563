/// The response type of requests whose success body carries nothing the caller needs.
package struct GrowNoContent: Decodable, Sendable, Equatable {
    package init() {}
    package init(from decoder: Decoder) throws {}
}
