import Foundation

extension EvidenceStore {
    // MARK: Trusted signers

    /// Registers a trusted signer: a public key (SPKI PEM, Ed25519) for a named person and role.
    package func addSigner(name: String, role: String, publicKeyPEM: String) throws -> SignerRecord {
        let role = try Validate.choice(role, SignoffRole.self, field: "role")
        try Validate.nonEmpty(name, field: "name")
        try Validate.noSecrets([("name", name)])
        guard let publicKey = Ed25519.normalizedPublicKeyPEM(publicKeyPEM) else {
            throw EvidenceError.invalidValue(field: "public key", value: "PEM", why: "not an Ed25519 public key in PEM (SPKI); write one with 'openssl pkey -in KEY.pem -pubout'.")
        }
        let keyId = Ed25519.keyId(publicKeyPEM: publicKey)
        let id: String = try write {
            if let existing = try db.first(RowQuery(Tables.signers.table, select: ["id"], where: [.equals("key_id", .text(keyId))]))?.string("id") {
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

    /// Registered signers, oldest first.
    package func signers() throws -> [SignerRecord] {
        // A file older than the migration that adds signers has none (it is read as it is, never migrated).
        guard schemaVersion >= Schema.signersVersion else { return [] }
        return try read {
            try db.fetch(.rows(of: Tables.signers)).map { r in
                SignerRecord(id: try r.string("id"), seq: try r.int64("seq"), name: try r.string("name"), role: try r.string("role"),
                             publicKey: try r.string("public_key"), keyId: try r.string("key_id"), createdBy: try r.string("created_by"),
                             createdAt: try r.string("created_at"))
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
}
