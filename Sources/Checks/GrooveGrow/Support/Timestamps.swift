import Foundation
import RFC3339Time

/// Reads the contract's RFC 3339 timestamps (`RFC3339.milliseconds`, with or without a fraction, `Z` or an offset).
enum Timestamps {
    static func parse(_ text: String) -> Date? {
        RFC3339.milliseconds(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}
