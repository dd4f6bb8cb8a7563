/// Finds credentials in text before it is stored.
///
/// growcert keeps no secrets at rest: a GrooveGrow server key, a `Bearer`
/// credential or a JWT-shaped customer token in any stored field is refused.
/// Store-signed JWS transactions are evidence, not credentials, and are
/// passed around this scanner by the callers that accept them.
public enum SecretScanner {
    /// What was found, in words for an error message (never the secret itself).
    public static func findSecret(in text: String) -> String? {
        let bytes = Array(text.utf8)
        if containsServerKey(bytes) { return "a GrooveGrow server key (gg_sk_…)" }
        if containsBearer(bytes) { return "a Bearer credential" }
        if containsJWT(bytes) { return "a JWT-shaped token (header.payload.signature)" }
        return nil
    }

    /// Replaces every credential in `text` with `<redacted>`.
    public static func redact(_ text: String) -> String {
        var out = text
        for pattern in [#"gg_sk_[A-Za-z0-9_\-]+"#, #"(?i)bearer\s+[A-Za-z0-9._~+/=\-]+"#,
                        #"eyJ[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*"#] {
            out = out.replacingOccurrences(ofPattern: pattern, with: "<redacted>")
        }
        return out
    }

    static func isTokenChar(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
    }

    static func containsServerKey(_ b: [UInt8]) -> Bool {
        let prefix = Array("gg_sk_".utf8)
        guard b.count >= prefix.count + 4 else { return false }
        var i = 0
        while i + prefix.count <= b.count {
            if b[i] == prefix[0], Array(b[i..<i + prefix.count]) == prefix {
                var j = i + prefix.count
                while j < b.count, isTokenChar(b[j]) { j += 1 }
                if j - (i + prefix.count) >= 4 { return true }
            }
            i += 1
        }
        return false
    }

    static func containsBearer(_ b: [UInt8]) -> Bool {
        let word = Array("bearer".utf8)
        var i = 0
        while i + word.count < b.count {
            var match = true
            for k in 0..<word.count where b[i + k] | 0x20 != word[k] { match = false; break }
            let startsWord = i == 0 || !isTokenChar(b[i - 1])
            if match, startsWord {
                var j = i + word.count
                guard j < b.count, b[j] == 0x20 || b[j] == 0x09 else { i += 1; continue }
                while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
                var n = 0
                while j < b.count, isTokenChar(b[j]) || b[j] == 0x2E || b[j] == 0x2B || b[j] == 0x2F || b[j] == 0x3D || b[j] == 0x7E { j += 1; n += 1 }
                if n >= 4 { return true }
            }
            i += 1
        }
        return false
    }

    /// Three base64url segments separated by dots, the first decoding to a JSON object (`eyJ`).
    static func containsJWT(_ b: [UInt8]) -> Bool {
        let start = Array("eyJ".utf8)
        var i = 0
        while i + 3 <= b.count {
            if b[i] == start[0], b[i + 1] == start[1], b[i + 2] == start[2], i == 0 || !isTokenChar(b[i - 1]) {
                var j = i
                var segments = [0, 0, 0]
                var s = 0
                while j < b.count, s < 3 {
                    if isTokenChar(b[j]) { segments[s] += 1 } else if b[j] == 0x2E, s < 2 { s += 1 } else { break }
                    j += 1
                }
                if s == 2, segments[0] >= 4, segments[1] >= 4 { return true }
            }
            i += 1
        }
        return false
    }
}

extension String {
    func replacingOccurrences(ofPattern pattern: String, with replacement: String) -> String {
        guard let regex = try? Regex(pattern) else { return self }
        return self.replacing(regex, with: replacement)
    }
}
