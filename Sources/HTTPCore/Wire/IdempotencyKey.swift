import Foundation

/// The `Idempotency-Key` rule both vendors' contracts share: 1–255 printable ASCII characters.
package enum IdempotencyKey {
    /// How many characters a key has.
    package static let lengthRange = 1...255

    /// Whether a server must take `key`: 1–255 bytes, each printable ASCII (space included), as the contracts say.
    package static func isWellFormed(_ key: String) -> Bool {
        lengthRange.contains(key.utf8.count) && key.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Whether a client sends `key`: well-formed and without spaces (a space at either end does not
    /// survive every proxy, so a client never risks one).
    package static func isValid(_ key: String) -> Bool {
        isWellFormed(key) && !key.utf8.contains(0x20)
    }

    /// A fresh random key (a lowercase UUID).
    @Sendable package static func random() -> String { UUID().uuidString.lowercased() }
}
