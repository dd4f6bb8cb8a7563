/// The hash chain over journal entries.
///
/// Each entry's hash is the SHA-256 (lowercase hex) of the canonical JSON
/// envelope `{"actor":…,"at":…,"kind":…,"payload":…,"prev":…,"seq":…}`,
/// where `payload` is the entry's canonical payload and `prev` the previous
/// entry's hash (64 zeros for the first). An auditor can recompute it with
/// any JSON tool and `sha256sum`; `docs/evidence.md` shows how.
public enum Chain {
    /// The `prev` of the first entry.
    public static let genesis = String(repeating: "0", count: 64)

    /// The canonical envelope text that is hashed.
    public static func envelope(seq: Int64, kind: String, actor: String, at: String, payload: String, prev: String) -> String {
        var out = "{\"actor\":"
        JSONValue.writeString(actor, into: &out)
        out += ",\"at\":"
        JSONValue.writeString(at, into: &out)
        out += ",\"kind\":"
        JSONValue.writeString(kind, into: &out)
        out += ",\"payload\":"
        out += payload
        out += ",\"prev\":"
        JSONValue.writeString(prev, into: &out)
        out += ",\"seq\":\(seq)}"
        return out
    }

    /// The hash of an entry.
    public static func hash(seq: Int64, kind: String, actor: String, at: String, payload: String, prev: String) -> String {
        Digest.sha256Hex(envelope(seq: seq, kind: kind, actor: actor, at: at, payload: payload, prev: prev))
    }
}
