/// Finds credentials in text before it is stored.
///
/// growcert keeps no secrets at rest: a GrooveGrow server key, a `Bearer`
/// credential or a JWT-shaped customer token in any stored field is refused.
/// Store-signed JWS transactions are evidence, not credentials, and are
/// passed around this scanner by the callers that accept them.
public enum SecretScanner {
    /// What was found, in words for an error message (never the secret itself).
    ///
    /// When a text holds more than one kind, the server key is named first, then the
    /// Bearer credential, then the JWT.
    public static func findSecret(in text: String) -> String? {
        let found = text.utf8.withContiguousStorageIfAvailable(scan) ?? Array(text.utf8).withUnsafeBufferPointer(scan)
        switch found {
        case .serverKey: return "a GrooveGrow server key (gg_sk_…)"
        case .bearer: return "a Bearer credential"
        case .jwt: return "a JWT-shaped token (header.payload.signature)"
        case .none: return nil
        }
    }

    /// The kinds of secret, most important first.
    private enum Found: Comparable { case serverKey, bearer, jwt, none }

    /// One pass over the text: each position is tested only for the patterns its byte can start
    /// (`g` a server key, `b`/`B` a Bearer credential, `e` a JWT), and the scan stops at the
    /// first server key, the kind named first.
    private static func scan(_ b: UnsafeBufferPointer<UInt8>) -> Found {
        var found = Found.none
        for i in b.indices {
            switch b[i] {
            case UInt8(ascii: "g"):
                if serverKey(at: i, in: b) { return .serverKey }
            case UInt8(ascii: "b"), UInt8(ascii: "B"):
                if found > .bearer, bearer(at: i, in: b) { found = .bearer }
            case UInt8(ascii: "e"):
                if found > .jwt, jwt(at: i, in: b) { found = .jwt }
            default: break
            }
        }
        return found
    }

    /// Replaces every credential in `text` with `<redacted>`.
    public static func redact(_ text: String) -> String {
        text.replacing(/gg_sk_[A-Za-z0-9_\-]+/, with: "<redacted>")
            .replacing(/(?i)bearer\s+[A-Za-z0-9._~+\/=\-]+/, with: "<redacted>")
            .replacing(/eyJ[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*/, with: "<redacted>")
    }

    static func isTokenChar(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
    }

    /// Whether `b` holds `s` at `i`.
    private static func matches(_ s: StaticString, at i: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard i + s.utf8CodeUnitCount <= b.count else { return false }
        for k in 0..<s.utf8CodeUnitCount where b[i + k] != s.utf8Start[k] { return false }
        return true
    }

    /// `gg_sk_` and at least four token characters.
    private static func serverKey(at i: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard matches("gg_sk_", at: i, in: b) else { return false }
        var j = i + 6
        while j < b.count, isTokenChar(b[j]) { j += 1 }
        return j - (i + 6) >= 4
    }

    /// The word `bearer` (any case, not inside a token), blanks, and at least four credential characters.
    private static func bearer(at i: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard i + 6 < b.count, i == 0 || !isTokenChar(b[i - 1]) else { return false }
        for (k, c) in "bearer".utf8.enumerated() where b[i + k] | 0x20 != c { return false }
        var j = i + 6
        guard b[j] == 0x20 || b[j] == 0x09 else { return false }
        while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
        var n = 0
        while j < b.count, isTokenChar(b[j]) || b[j] == 0x2E || b[j] == 0x2B || b[j] == 0x2F || b[j] == 0x3D || b[j] == 0x7E { j += 1; n += 1 }
        return n >= 4
    }

    /// Three base64url segments separated by dots, the first decoding to a JSON object (`eyJ`),
    /// not inside a token; the first two segments at least four characters long.
    private static func jwt(at i: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard matches("eyJ", at: i, in: b), i == 0 || !isTokenChar(b[i - 1]) else { return false }
        var segments = (0, 0)
        var s = 0
        var j = i
        while j < b.count {
            if isTokenChar(b[j]) {
                if s == 0 { segments.0 += 1 } else if s == 1 { segments.1 += 1 }
            } else if b[j] == 0x2E, s < 2 {
                s += 1
                if s == 2 { break }
            } else {
                break
            }
            j += 1
        }
        return s == 2 && segments.0 >= 4 && segments.1 >= 4
    }
}
