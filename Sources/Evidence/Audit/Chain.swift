import StrictJSON

/// The hash chain over journal entries.
///
/// Each entry's hash is the SHA-256 (lowercase hex) of the canonical JSON
/// envelope `{"actor":…,"at":…,"kind":…,"payload":…,"prev":…,"seq":…}`,
/// where `payload` is the entry's canonical payload and `prev` the previous
/// entry's hash (64 zeros for the first). An auditor can recompute it with
/// any JSON tool and `sha256sum`; `docs/evidence.md` shows how.
package enum Chain {
    /// The `prev` of the first entry.
    package static let genesis = String(repeating: "0", count: 64)

    /// The canonical envelope text that is hashed.
    package static func envelope(seq: Int64, kind: String, actor: String, at: String, payload: String, prev: String) -> String {
        var out = envelopeHead(kind: kind, actor: actor, at: at)
        out += payload
        out += ",\"prev\":"
        JSONValue.writeString(prev, into: &out)
        out += ",\"seq\":\(seq)}"
        return out
    }

    /// The hash of an entry.
    package static func hash(seq: Int64, kind: String, actor: String, at: String, payload: String, prev: String) -> String {
        Digest.sha256Hex(envelope(seq: seq, kind: kind, actor: actor, at: at, payload: payload, prev: prev))
    }

    /// The envelope of an entry read from the journal as UTF-8 bytes (valid UTF-8), appended to `out`:
    /// the same bytes as `envelope` gives for the same text.
    static func appendEnvelope(seq: Int64, kind: UnsafeBufferPointer<UInt8>, actor: UnsafeBufferPointer<UInt8>, at: UnsafeBufferPointer<UInt8>,
                               payload: UnsafeBufferPointer<UInt8>, prev: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        CanonicalJSON.appendLiteral(#"{"actor":"#, into: &out)
        CanonicalJSON.writeString(actor, into: &out)
        CanonicalJSON.appendLiteral(#","at":"#, into: &out)
        CanonicalJSON.writeString(at, into: &out)
        CanonicalJSON.appendLiteral(#","kind":"#, into: &out)
        CanonicalJSON.writeString(kind, into: &out)
        CanonicalJSON.appendLiteral(#","payload":"#, into: &out)
        out.append(contentsOf: payload)
        CanonicalJSON.appendLiteral(#","prev":"#, into: &out)
        CanonicalJSON.writeString(prev, into: &out)
        CanonicalJSON.appendLiteral(#","seq":"#, into: &out)
        DecimalText.append(seq, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The envelope up to its payload, `{"actor":…,"at":…,"kind":…,"payload":`, for an append whose seq and prev
    /// the server fills in (`EvidenceStore.addEvidenceChainedInServer`): the envelope is then this, the payload,
    /// `envelopeBeforePrev`, prev, `envelopeBeforeSeq`, the seq in decimal and `envelopeEnd`, the bytes
    /// `appendEnvelope` writes (prev is lowercase hex, which JSON writes as it is).
    static func envelopeHead(kind: String, actor: String, at: String) -> String {
        var out = "{\"actor\":"
        JSONValue.writeString(actor, into: &out)
        out += ",\"at\":"
        JSONValue.writeString(at, into: &out)
        out += ",\"kind\":"
        JSONValue.writeString(kind, into: &out)
        out += ",\"payload\":"
        return out
    }

    /// What comes between the payload and prev's hex in an envelope (see `envelopeHead`).
    static let envelopeBeforePrev = #","prev":""#
    /// What comes between prev's hex and the seq.
    static let envelopeBeforeSeq = #"","seq":"#
    /// The envelope's end.
    static let envelopeEnd = "}"

    /// The hash of an entry whose canonical payload is at hand as UTF-8 bytes (the append path: the caller's thread, or
    /// a batch's writer, `BatchWriter.appendChained`).
    ///
    /// `buffer` is scratch space, reused across entries so that a batch does not allocate an
    /// envelope per entry.
    static func hash(seq: Int64, kind: String, actor: String, at: String, payload: UnsafeBufferPointer<UInt8>, prev: String, buffer: inout [UInt8]) -> String {
        buffer.removeAll(keepingCapacity: true)
        var (kind, actor, at, prev) = (kind, actor, at, prev)
        kind.withUTF8 { k in
            actor.withUTF8 { a in
                at.withUTF8 { t in
                    prev.withUTF8 { p in
                        appendEnvelope(seq: seq, kind: k, actor: a, at: t, payload: payload, prev: p, into: &buffer)
                    }
                }
            }
        }
        return Digest.sha256Hex(buffer)
    }
}
