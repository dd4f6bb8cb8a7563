import Foundation
import HTTPCore

/// Decodes request bodies, naming the field that was wrong.
enum JSONBody {
    /// `body` as `T`, or a `RequestProblem` naming the missing or mistyped field.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(RequestProblem) -> T {
        do {
            return try WireJSON.decode(T.self, from: body)
        } catch let DecodingError.keyNotFound(key, _) {
            throw RequestProblem("The JSON body lacks the field '\(key.stringValue)'.")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw RequestProblem("The JSON field '\(fieldPath(context))' has the wrong type.")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw RequestProblem("The JSON field '\(fieldPath(context))' is invalid: \(context.debugDescription)")
        } catch {
            throw RequestProblem("The body is not valid JSON for this endpoint.")
        }
    }

    private static func fieldPath(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// The body with JSON object keys sorted, so that a client re-encoding the same request (key order is not
    /// stable across JSON encoders) still counts as the same body. Bodies that are not JSON stay byte for byte.
    static func canonical(_ body: Data) -> Data {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
              let canonical = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return body }
        return canonical
    }
}
