import Foundation

/// Reading and comparing presented credentials; the vendor passes its scheme and names in.
enum Credentials {
    /// The credential of an `Authorization: <scheme> <credential>` value; nil when absent or of another scheme.
    static func bearer(_ value: String?, scheme: String) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].caseInsensitiveCompare(scheme) == .orderedSame else { return nil }
        let credential = parts[1].trimmingCharacters(in: .whitespaces)
        return credential.isEmpty ? nil : credential
    }

    /// Compares secrets without stopping at the first difference.
    static func sameSecret(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for (p, q) in zip(x, y) { difference |= p ^ q }
        return difference == 0
    }

    /// Identifiers chosen by callers (user and product ids): 1–128 visible ASCII characters, no `/`.
    static func isValidIdentifier(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "/") }
    }
}
