/// An HTTP request method.
package enum HTTPMethod: String, Sendable, Hashable, Codable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"
}
