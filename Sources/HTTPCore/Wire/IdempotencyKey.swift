import Foundation

/// The `Idempotency-Key` rule both vendors share: 1–255 printable ASCII characters without spaces.
public enum IdempotencyKey {
    /// Whether `key` may be sent: 1–255 bytes, each printable ASCII other than space.
    public static func isValid(_ key: String) -> Bool {
        (1...255).contains(key.utf8.count) && key.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7f }
    }

    /// A fresh random key (a lowercase UUID).
    @Sendable public static func random() -> String { UUID().uuidString.lowercased() }
}
