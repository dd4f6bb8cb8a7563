import Foundation

/// `Retry-After` as both vendors send it.
package enum RetryAfter {
    /// The header in delta-seconds; an HTTP-date, a negative number or garbage gives nil.
    package static func seconds(_ header: String?) -> Int? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty,
              text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text.prefix(9))
    }
}
