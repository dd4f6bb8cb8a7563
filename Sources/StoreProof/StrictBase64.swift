/// Canonical base64 decoding, refusing anything a different encoder would not have produced.
///
/// Foundation's decoder tolerates non-zero trailing bits, so two different
/// strings can decode to the same bytes. In a JWS that would let a changed
/// token verify; here every byte string has exactly one accepted spelling.
enum StrictBase64 {
    enum Alphabet {
        /// RFC 4648 §5, no padding (JWS segments).
        case url
        /// RFC 4648 §4 with `=` padding (x5c certificates); unpadded input is accepted too.
        case standard
    }

    /// Decodes `text`, or returns nil when it is not canonical in `alphabet`.
    static func decode(_ text: Substring.UTF8View, alphabet: Alphabet) -> [UInt8]? {
        var chars = Array(text)
        if alphabet == .standard {
            var pad = 0
            while let last = chars.last, last == UInt8(ascii: "=") { chars.removeLast(); pad += 1 }
            if pad > 0 {
                guard pad <= 2, (chars.count + pad) % 4 == 0 else { return nil }
            }
        }
        if chars.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for c in chars {
            guard let v = value(of: c, alphabet: alphabet) else { return nil }
            buffer = (buffer << 6) | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // Leftover bits must be zero, or the spelling is not canonical.
        if bits > 0, buffer & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return out
    }

    static func decode(_ text: String, alphabet: Alphabet) -> [UInt8]? {
        decode(Substring(text).utf8, alphabet: alphabet)
    }

    private static func value(of c: UInt8, alphabet: Alphabet) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-") where alphabet == .url: return 62
        case UInt8(ascii: "_") where alphabet == .url: return 63
        case UInt8(ascii: "+") where alphabet == .standard: return 62
        case UInt8(ascii: "/") where alphabet == .standard: return 63
        default: return nil
        }
    }
}
