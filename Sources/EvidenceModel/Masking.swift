import Foundation

/// Masks store account addresses for display: `sandbox.tester@icloud.com` → `s***r@icloud.com`.
package enum Masking {
    /// The masked form of an e-mail address or account id.
    package static func mask(_ account: String) -> String {
        let trimmed = account.trimmingCharacters(in: .whitespacesAndNewlines)
        if let at = trimmed.lastIndex(of: "@") {
            let local = trimmed[..<at]
            let domain = trimmed[trimmed.index(after: at)...]
            return maskPart(Substring(local)) + "@" + domain
        }
        return maskPart(Substring(trimmed))
    }

    static func maskPart(_ s: Substring) -> String {
        guard let first = s.first, let last = s.last else { return "***" }
        if s.count <= 2 { return String(first) + "***" }
        return String(first) + "***" + String(last)
    }

    /// The form an account is hashed in, so the same account is recognised however it was typed.
    package static func normalizedAccount(_ account: String) -> String {
        account.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
