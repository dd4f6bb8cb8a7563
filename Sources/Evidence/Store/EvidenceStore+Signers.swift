import Foundation

extension EvidenceStore {
    // MARK: Trusted signers

    /// Registers a trusted signer: a public key (SPKI PEM, Ed25519) for a named person and role.
    public func addSigner(name: String, role: String, publicKeyPEM: String) throws -> SignerRecord {
        let role = try Validate.choice(role, SignoffRole.self, field: "role")
        try Validate.nonEmpty(name, field: "name")
        try Validate.noSecrets([("name", name)])
        guard let publicKey = Ed25519.normalizedPublicKeyPEM(publicKeyPEM) else {
            throw EvidenceError.invalidValue(field: "public key", value: "PEM", why: "not an Ed25519 public key in PEM (SPKI); write one with 'openssl pkey -in KEY.pem -pubout'.")
        }
        let keyId = Ed25519.keyId(publicKeyPEM: publicKey)
        let id: String = try write {
            if let existing = try db.scalarText("SELECT id FROM signers WHERE key_id=?", [.text(keyId)]) {
                throw EvidenceError.conflict("Key \(keyId) is already registered as signer \(existing). Nothing was written.")
            }
            let id = try nextId(Tables.signers)
            try append(.signerAdd) { _, at in
                ["id": .string(id), "name": .string(name), "role": .string(role.rawValue), "public_key": .string(publicKey),
                 "key_id": .string(keyId), "created_by": .string(actor), "created_at": .string(at)]
            }
            return id
        }
        return try signers().first { $0.id == id } ?? { throw EvidenceError.internalFailure("signer \(id) was not recorded") }()
    }

    static let signerColumns = "id, seq, name, role, public_key, key_id, created_by, created_at"

    /// Registered signers, oldest first.
    public func signers() throws -> [SignerRecord] {
        try read {
            try db.query("SELECT \(Self.signerColumns) FROM signers ORDER BY seq").map { r in
                SignerRecord(id: r.string(0), seq: r.int(1) ?? 0, name: r.string(2), role: r.string(3), publicKey: r.string(4),
                             keyId: r.string(5), createdBy: r.string(6), createdAt: r.string(7))
            }
        }
    }

    /// Problems with registered signers: a key id that is not its key's, a key that is not Ed25519.
    func verifySigners() throws -> [VerificationProblem] {
        try signers().compactMap { s in
            guard Ed25519.normalizedPublicKeyPEM(s.publicKey) == s.publicKey, Ed25519.keyId(publicKeyPEM: s.publicKey) == s.keyId else {
                return VerificationProblem(seq: s.seq, message: "signer \(s.id): key id \(s.keyId) is not the id of its public key")
            }
            return nil
        }
    }

    // MARK: Timestamp anchors

    /// Stores a timestamp token over the journal entry `headSeq` (whose hash is `headHash`),
    /// after checking the token's signature and imprint.
    public func addAnchor(headSeq: Int64, headHash: String, tsaURL: String, token: [UInt8]) throws -> AnchorRecord {
        try Validate.noSecrets([("timestamp authority URL", tsaURL)])
        let granted = try TimestampToken.verify(token: token, head: headHash)
        let id: String = try write {
            guard try db.scalarText("SELECT hash FROM journal WHERE seq=?", [.integer(headSeq)]) == headHash else {
                throw EvidenceError.conflict("Journal entry \(headSeq) no longer has hash \(headHash); nothing was written.")
            }
            let id = try nextId(Tables.anchors)
            try append(.anchorAdd) { _, at in
                ["id": .string(id), "head_seq": .number(String(headSeq)), "head_hash": .string(headHash), "tsa_url": .string(tsaURL),
                 "token": .string(Data(token).base64EncodedString()), "gen_time": .string(granted.genTime), "serial": .string(granted.serial),
                 "created_by": .string(actor), "created_at": .string(at)]
            }
            return id
        }
        return try anchors().first { $0.id == id } ?? { throw EvidenceError.internalFailure("anchor \(id) was not recorded") }()
    }

    static let anchorColumns = "id, seq, head_seq, head_hash, tsa_url, token, gen_time, serial, created_by, created_at"

    /// Stored timestamp anchors, oldest first.
    public func anchors() throws -> [AnchorRecord] {
        try read {
            try db.query("SELECT \(Self.anchorColumns) FROM anchors ORDER BY seq").map { r in
                AnchorRecord(id: r.string(0), seq: r.int(1) ?? 0, headSeq: r.int(2) ?? 0, headHash: r.string(3), tsaURL: r.string(4),
                             token: r.string(5), genTime: r.string(6), serial: r.string(7), createdBy: r.string(8), createdAt: r.string(9))
            }
        }
    }

    /// Problems with stored timestamp tokens: an imprint that is not its entry's hash, a head not in
    /// the chain, a signature that does not verify with the token's embedded certificate.
    func verifyAnchors() throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        for a in try anchors() {
            let hash = try db.scalarText("SELECT hash FROM journal WHERE seq=?", [.integer(a.headSeq)])
            if hash != a.headHash || a.headSeq >= a.seq {
                problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): the head it timestamps (\(a.headHash.prefix(12))… at entry \(a.headSeq)) is not in the chain before it"))
                continue
            }
            guard let der = Data(base64Encoded: a.token) else {
                problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): \(TimestampToken.Failure.notAToken)"))
                continue
            }
            do {
                let granted = try TimestampToken.verify(token: [UInt8](der), head: a.headHash)
                if granted.genTime != a.genTime || granted.serial != a.serial {
                    problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): gen_time or serial differ from the token's"))
                }
            } catch {
                problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): \(error)"))
            }
        }
        return problems
    }
}

extension EvidenceStore {
    // MARK: Anchors kept outside the file

    /// The journal entry whose hash is `hash`, if the journal has it.
    public func journalEntry(hash: String) throws -> JournalEntry? {
        try read {
            try db.query("SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal WHERE hash=?", [.text(hash)]).first.map(Self.entry)
        }
    }
}
