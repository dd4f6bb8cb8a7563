import Foundation
import StrictJSON

extension EvidenceStore {
    /// The default attachment size limit: 25 MiB.
    package static let defaultAttachmentLimit = 25 * 1_048_576

    /// Records a new campaign: one app build under certification.
    package func createCampaign(_ new: NewCampaign) throws -> Campaign {
        let profile = try profileNamed(new.profile)
        try Validate.identifierLike(new.appId, field: "app id")
        try Validate.nonEmpty(new.appVersion, field: "app version")
        try Validate.nonEmpty(new.build, field: "build")
        try Validate.nonEmpty(new.sdkVersion, field: "SDK version")
        try Validate.nonEmpty(new.sdkName, field: "SDK name")
        let project = try profile.target.validate(new.project)
        let baseURL = try Validate.baseURL(new.baseURL)
        var pins: [String] = []
        for pin in new.sandboxPins where !pins.contains(try Validate.sandboxPin(pin)) { pins.append(pin) }
        if let key = new.playLicenseKey { _ = try Validate.playLicenseKey(key) }
        let name = new.name ?? "\(new.appId) \(new.appVersion) (\(new.build))"
        try Validate.nonEmpty(name, field: "name")
        try Validate.noSecrets([("name", name), ("app id", new.appId), ("app version", new.appVersion), ("build", new.build),
                                ("SDK name", new.sdkName), ("SDK version", new.sdkVersion), ("base URL", baseURL)])
        let id: String = try write {
            let id = try nextId(Tables.campaigns)
            try append(.campaignCreate) { _, at in
                ["id": .string(id), "profile": .string(profile.id), "name": .string(name), "app_id": .string(new.appId),
                 "app_version": .string(new.appVersion), "build": .string(new.build), "sdk_name": .string(new.sdkName),
                 "sdk_version": .string(new.sdkVersion), "project": .string(project), "base_url": .string(baseURL),
                 "created_by": .string(actor), "created_at": .string(at),
                 "sandbox_pins": pins.isEmpty ? .null : .string(pins.joined(separator: " "))]
            }
            // The license key is not a campaigns column: it is journaled as the campaign's first update, in the same write.
            if let key = new.playLicenseKey {
                let updateId = try nextId(Tables.campaignUpdates)
                try append(.campaignUpdate) { _, at in
                    ["id": .string(updateId), "campaign_id": .string(id),
                     "changes": [CampaignField.playLicenseKey.rawValue: ["from": "", "to": .string(key)]],
                     "note": .null, "updated_by": .string(actor), "updated_at": .string(at)]
                }
            }
            return id
        }
        return try campaign(id)
    }

    /// Records a change of a campaign's values: one `campaign.update` entry and one row of
    /// `campaign_updates` (the campaign's own row is never updated). Values equal to the current ones
    /// are left out; when nothing is left, nothing is written.
    ///
    /// - Returns: the update as recorded.
    package func updateCampaign(id: String, changes: [CampaignField: String], note: String?) throws -> CampaignUpdate {
        let campaign = try self.campaign(id)
        var normalized: [CampaignField: String] = [:]
        for (field, raw) in changes {
            let value: String
            switch field {
            case .project: value = try TargetField.of(profile: campaign.profile).validate(raw)
            case .baseURL: value = try Validate.baseURL(raw)
            case .playLicenseKey: value = try Validate.playLicenseKey(raw)
            case .sandboxPins:
                var pins: [String] = []
                for pin in raw.split(separator: " ").map(String.init) where !pins.contains(try Validate.sandboxPin(pin)) { pins.append(pin) }
                guard !pins.isEmpty else { throw EvidenceError.invalidValue(field: "Sandbox pins", value: raw, why: "needs at least one pin") }
                value = pins.joined(separator: " ")
            case .requireRunBinding:
                guard raw == "yes" || raw == "no" else {
                    throw EvidenceError.invalidValue(field: field.label, value: raw, why: "must be 'yes' or 'no'")
                }
                value = raw
            default:
                try Validate.nonEmpty(raw, field: field.label)
                value = raw
            }
            try Validate.noSecrets([(field.label, value)])
            normalized[field] = value
        }
        if let note { try Validate.noSecrets([("note", note)]) }
        let id: String = try write {
            // Compared inside the write lock with the values as they are now, another writer's update included.
            let current = try self.campaign(campaign.id)
            let changed = normalized.filter { current.value(of: $0.key) != $0.value }
            guard !changed.isEmpty else {
                throw EvidenceError.conflict("Campaign \(campaign.id) already has \(normalized.keys.sorted { $0.rawValue < $1.rawValue }.map { "\($0.label) '\(current.value(of: $0))'" }.joined(separator: ", ")). Nothing was changed.")
            }
            var object: [String: JSONValue] = [:]
            for (field, value) in changed { object[field.rawValue] = ["from": .string(current.value(of: field)), "to": .string(value)] }
            let id = try nextId(Tables.campaignUpdates)
            try append(.campaignUpdate) { _, at in
                ["id": .string(id), "campaign_id": .string(campaign.id), "changes": .object(object), "note": .optional(note),
                 "updated_by": .string(actor), "updated_at": .string(at)]
            }
            return id
        }
        guard let update = try campaignUpdates(campaignId: campaign.id).first(where: { $0.id == id }) else {
            throw EvidenceError.internalFailure("campaign update \(id) was recorded but cannot be read back")
        }
        return update
    }

    /// Records a device of a campaign.
    package func addDevice(_ new: NewDevice) throws -> Device {
        let campaign = try self.campaign(new.campaignId)
        try Validate.label(new.label, field: "device label")
        let kind = try Validate.choice(new.kind, DeviceKind.self, field: "device kind")
        let platform = try Validate.choice(new.platform, Platform.self, field: "platform")
        try Validate.nonEmpty(new.model, field: "model")
        try Validate.nonEmpty(new.osVersion, field: "OS version")
        try Validate.noSecrets([("device label", new.label), ("model", new.model), ("OS version", new.osVersion)])
        if let identifier = new.identifier { try Validate.nonEmpty(identifier, field: "device identifier") }
        let identifierHash = try new.identifier.map { try keyedHash("device:" + $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let id: String = try write {
            if try db.first(RowQuery(Tables.devices.table, select: ["id"], where: [.equals("campaign_id", .text(campaign.id)), .equals("label", .text(new.label))])) != nil {
                throw EvidenceError.conflict("Campaign \(campaign.id) already has a device labelled '\(new.label)'. Choose another label.")
            }
            let id = try nextId(Tables.devices)
            try append(.deviceAdd) { _, at in
                ["id": .string(id), "campaign_id": .string(campaign.id), "label": .string(new.label), "kind": .string(kind.rawValue),
                 "platform": .string(platform.rawValue), "model": .string(new.model), "os_version": .string(new.osVersion),
                 "identifier_hash": .optional(identifierHash), "created_at": .string(at)]
            }
            return id
        }
        return try device(id)
    }

    /// Records a store sandbox account of a campaign; the address is kept masked and as a keyed hash.
    package func addAccount(_ new: NewAccount) throws -> StoreAccount {
        let campaign = try self.campaign(new.campaignId)
        try Validate.label(new.label, field: "account label")
        let store = try Validate.choice(new.store, Store.self, field: "store")
        try Validate.nonEmpty(new.account, field: "account")
        try Validate.noSecrets([("account label", new.label), ("account", new.account), ("storefront", new.storefront ?? "")])
        let masked = Masking.mask(new.account)
        let hash = try keyedHash("account:" + store.rawValue + ":" + Masking.normalizedAccount(new.account))
        let id: String = try write {
            if try db.first(RowQuery(Tables.accounts.table, select: ["id"], where: [.equals("campaign_id", .text(campaign.id)), .equals("label", .text(new.label))])) != nil {
                throw EvidenceError.conflict("Campaign \(campaign.id) already has a store account labelled '\(new.label)'. Choose another label.")
            }
            let id = try nextId(Tables.accounts)
            try append(.accountAdd) { _, at in
                ["id": .string(id), "campaign_id": .string(campaign.id), "label": .string(new.label), "store": .string(store.rawValue),
                 "account_masked": .string(masked), "account_hash": .string(hash), "storefront": .optional(new.storefront),
                 "created_at": .string(at)]
            }
            return id
        }
        return try account(id)
    }

    /// Starts a run of one scenario.
    package func startRun(_ new: NewRun) throws -> Run {
        let campaign = try self.campaign(new.campaignId)
        let profile = try profileNamed(campaign.profile)
        let scenario = try profile.scenario(new.scenario)
        try Validate.nonEmpty(new.tester, field: "tester")
        try Validate.noSecrets([("tester", new.tester)])
        let devices = try self.devices(campaignId: campaign.id)
        guard let device = devices.first(where: { $0.label == new.deviceLabel }) else {
            throw EvidenceError.unknown(what: "device", value: new.deviceLabel, known: devices.map(\.label))
        }
        var account: StoreAccount?
        if let label = new.accountLabel {
            let accounts = try self.accounts(campaignId: campaign.id)
            guard let a = accounts.first(where: { $0.label == label }) else {
                throw EvidenceError.unknown(what: "store account", value: label, known: accounts.map(\.label))
            }
            account = a
        }
        let id: String = try write {
            let id = try nextId(Tables.runs)
            try append(.runStart) { _, at in
                ["id": .string(id), "campaign_id": .string(campaign.id), "scenario": .string(scenario.id), "device_id": .string(device.id),
                 "account_id": .optional(account?.id), "tester": .string(new.tester), "started_at": .string(at),
                 "finished_at": .null, "outcome": .null, "note": .null]
            }
            if let clock = new.clock { try appendClock(clock, event: .start, runId: id) }
            return id
        }
        return try run(id)
    }

    /// Appends a `run.clock` entry: the reading, and at a start a fresh run nonce. Inside the caller's write.
    private func appendClock(_ reading: ClockReading, event: RunClockEvent, runId: String) throws {
        guard schemaVersion >= Schema.runClocksVersion else { return }
        let id = try nextId(Tables.runClocks)
        let nonce: JSONValue = event == .start ? .string(UUID().uuidString.lowercased()) : .null
        try append(.runClock) { _, at in
            ["id": .string(id), "run_id": .string(runId), "event": .string(event.rawValue), "nonce": nonce,
             "reading": reading.json, "recorded_at": .string(at)]
        }
    }

    /// Finishes a run with the tester's outcome.
    ///
    /// `clock` is the Sandbox's clock read as the run finishes (the run's outside finish); nil records none.
    package func finishRun(id: String, outcome: String, note: String?, clock: ClockReading? = nil) throws -> Run {
        let run = try self.run(id)
        let outcome = try Validate.choice(outcome, RunOutcome.self, field: "outcome")
        if let note { try Validate.noSecrets([("note", note)]) }
        try write {
            // Checked inside the write lock so two processes cannot both finish the run.
            if let abandoned = try abandonment(ofRun: run.id) {
                throw EvidenceError.conflict("Run \(run.id) was abandoned at \(abandoned.at) ('\(abandoned.reason)'): it cannot be finished. Nothing was written.")
            }
            if try finish(ofRun: run.id) != nil {
                let done = try self.run(run.id)
                throw EvidenceError.conflict("Run \(run.id) was already finished at \(done.finishedAt ?? "?") with outcome '\(done.outcome?.rawValue ?? "?")'. Start a new run to record another result.")
            }
            if let clock { try appendClock(clock, event: .finish, runId: run.id) }
            try append(.runFinish) { _, at in
                ["id": .string(run.id), "finished_at": .string(at), "outcome": .string(outcome.rawValue), "note": .optional(note)]
            }
            if inBatch { batchCache.openRuns.remove(run.id) }
        }
        return try self.run(run.id)
    }

    /// Records an evidence item on a run, storing an attachment's bytes once by SHA-256.
    ///
    /// With `importKey` (a line of an import file), the key is recorded with the item, in its transaction, by an
    /// `evidence.import` entry; a key already recorded is refused (`importedLines(fileSHA256:)` lists them).
    package func addEvidence(_ new: NewEvidence, importKey: ImportKey? = nil,
                            attachmentLimit: Int = EvidenceStore.defaultAttachmentLimit) throws -> EvidenceItem {
        let sha = try validateContent(new, attachmentLimit: attachmentLimit)
        if let item = try addEvidenceChainedInServer(new, importKey: importKey) { return item }
        let runId = try self.runId(forWrite: new.runId)
        let size = new.attachment.map { Int64($0.bytes.count) }
        return try write {
            let id = try requireAccepts(runId: runId, type: new.type, nextId: Tables.evidence)
            if let importKey, let earlier = try importedItem(importKey) {
                throw EvidenceError.conflict("Line \(importKey.line) of this file (SHA-256 \(importKey.fileSHA256.prefix(16))…) was already recorded, as \(earlier). Nothing of it was written again.")
            }
            if let a = new.attachment, let sha {
                try db.putBlob(sha256: sha, bytes: a.bytes)
            }
            let (seq, at, columns) = try appendRow(.evidenceAdd, Tables.evidence) { _, at in
                evidenceRow(id: id, runId: runId, new, sha: sha, size: size, at: at)
            }
            let details = storedDetails(new, columns: columns)
            if let importKey {
                _ = try appendRow(.evidenceImport, Tables.evidenceImports) { _, _ in
                    [.string(id), .string(importKey.fileSHA256), .number(String(importKey.line))]
                }
            }
            return EvidenceItem(id: id, seq: seq, runId: runId, type: new.type, provenance: new.provenance,
                                details: details, attachmentSHA256: sha, mediaType: new.attachment?.mediaType,
                                size: size, recordedBy: actor, recordedAt: at, retractedSeq: nil, retractedReason: nil)
        }
    }

    /// The values of a new item's `evidence` row, in the order of `Tables.evidence.columns`: the one list both
    /// append paths write.
    private func evidenceRow(id: String, runId: String, _ new: NewEvidence, sha: String?, size: Int64?, at: String) -> [JSONValue] {
        [.string(id), .string(runId), .string(new.type.rawValue), .string(new.provenance.rawValue), new.details, .optional(sha),
         .optional(new.attachment?.mediaType), size.map { .number(String($0)) } ?? .null, .string(actor), .string(at), .null, .null]
    }

    /// The item exactly as `evidenceItem(id)` would read it back (details parsed from their stored text), without a
    /// second query: bulk imports add items by the thousand. A JSON structure parses back to itself unless it holds
    /// something the parser refuses; anything else is parsed as a read would.
    private func storedDetails(_ new: NewEvidence, columns: [SQLValue]) -> JSONValue {
        let structure = new.details.objectValue != nil || new.details.arrayValue != nil
        return structure && CanonicalJSON.roundTrips(new.details)
            ? new.details : (try? JSONValue.parse(columns[Self.detailsColumn].columnText ?? "null")) ?? .null
    }

    /// Where an item's details are among its row's values.
    private static let detailsColumn = Tables.evidence.columns.firstIndex(of: "details")!

    /// A PostgreSQL store's one-round-trip append of an item without attachment or import key, outside a batch: the
    /// server takes the journal's lock, finds the run, counts the next id, reads the head, hashes the envelope and
    /// inserts the entry and the row in one statement that is its own transaction, sent with the flush that acknowledges
    /// it (`PostgresConnection.appendRowChainedInServer`), so a note is one round trip and the lock is never held across one. Its
    /// time is taken before the lock, so the journal's times may step back by the wait for it (`verify` warns only past
    /// its skew). Returns nil, having written nothing, where the other path applies: an attachment or an import key, a
    /// batch, another backend or schema, or a run that is unknown (whose error, naming the runs there are, that path
    /// words), finished or abandoned (whose rule, `RunAdmission`, that path applies and words). The hash the server
    /// wrote is checked against `Chain`'s, here.
    private func addEvidenceChainedInServer(_ new: NewEvidence, importKey: ImportKey?) throws -> EvidenceItem? {
        guard importKey == nil, new.attachment == nil, let pg = db as? PostgresConnection, !inBatch, schemaVersion == Schema.currentVersion,
              let idColumn = Tables.evidence.columns.firstIndex(of: "id") else { return nil }
        try checkActor()
        // Stored as `run(_:)` looks it up; the statement writes nothing unless a run of this id exists.
        let runId = new.runId.lowercased()
        let at = Timestamp.string(clock())
        let (payload, columns, splitAt) = Self.rowPayload(Tables.evidence, evidenceRow(id: "", runId: runId, new, sha: nil, size: nil, at: at),
                                                         unknownString: idColumn)
        guard let splitAt else { return nil }
        let kind = JournalKind.evidenceAdd.rawValue
        let row = PostgresConnection.ServerChainedRow(
            spec: Tables.evidence, kind: kind, actor: actor, at: at, runId: runId,
            payloadBeforeId: String(decoding: payload[..<splitAt], as: UTF8.self), payloadAfterId: String(decoding: payload[splitAt...], as: UTF8.self),
            envelopeHead: Chain.envelopeHead(kind: kind, actor: actor, at: at), columns: columns, idColumn: idColumn)
        guard let written = try write({ try pg.appendRowChainedInServer(row) }) else { return nil }
        let stored = row.payloadBeforeId + written.id + row.payloadAfterId
        let expected = Chain.hash(seq: written.seq, kind: kind, actor: actor, at: at, payload: stored, prev: written.prev)
        guard expected == written.hash else {
            throw EvidenceError.internalFailure("entry \(written.seq) was written with the hash \(written.hash) by the server, but its envelope hashes to \(expected): the chain breaks at this entry, and verify reports it")
        }
        return EvidenceItem(id: written.id, seq: written.seq, runId: runId, type: new.type, provenance: new.provenance,
                            details: storedDetails(new, columns: columns),
                            attachmentSHA256: nil, mediaType: nil, size: nil, recordedBy: actor, recordedAt: at, retractedSeq: nil, retractedReason: nil)
    }

    /// The item recorded for import key `key`, if one was. Call inside `write` or `read`.
    private func importedItem(_ key: ImportKey) throws -> String? {
        guard schemaVersion >= Schema.importsVersion else { return nil }
        return try db.first(RowQuery(Tables.evidenceImports.table, select: ["id"],
                                     where: [.equals("file_sha256", .text(key.fileSHA256)), .equals("line", .integer(Int64(key.line)))]))?.string("id")
    }

    /// The lines of the import file with SHA-256 `fileSHA256` already recorded (by their import keys): what
    /// `evidence import --resume` skips.
    package func importedLines(fileSHA256: String) throws -> Set<Int> {
        guard schemaVersion >= Schema.importsVersion else { return [] }
        return try read {
            var lines: Set<Int> = []
            try db.forEach(RowQuery(Tables.evidenceImports.table, select: ["line"], where: [.equals("file_sha256", .text(fileSHA256))])) { r in
                lines.insert(try r.integer("line", as: Int.self))
            }
            return lines
        }
    }

    /// Checks an evidence item as `addEvidence` would, without writing anything (a dry run):
    /// the run exists and is open, no credential, the attachment within its limit.
    package func checkEvidence(_ new: NewEvidence, attachmentLimit: Int = EvidenceStore.defaultAttachmentLimit) throws {
        _ = try validateContent(new, attachmentLimit: attachmentLimit)
        let runId = try self.runId(forWrite: new.runId)
        try read { try requireAccepts(runId: runId, type: new.type) }
    }

    /// What `addEvidence` checks of an item before it looks up its run: no credential, the attachment within its
    /// limit. Returns the attachment's SHA-256.
    private func validateContent(_ new: NewEvidence, attachmentLimit: Int) throws -> String? {
        try Validate.noSecrets(in: new.details, path: "details", skipping: new.signedPayloadKeys)
        var sha: String?
        if let a = new.attachment {
            if a.bytes.count > attachmentLimit {
                throw EvidenceError.fileTooLarge(path: a.filename, size: a.bytes.count, limit: attachmentLimit)
            }
            try Validate.noSecrets([("media type", a.mediaType), ("file name", a.filename)])
            try Validate.noSecrets(inAttachment: a.bytes, filename: a.filename)
            sha = Digest.sha256Hex(a.bytes)
        }
        return sha
    }

    /// Retracts an evidence item: a new journal entry that references it. The item stays in the record.
    package func retract(evidenceId: String, reason: String) throws -> EvidenceItem {
        let item = try self.evidenceItem(evidenceId)
        try Validate.nonEmpty(reason, field: "reason")
        try Validate.noSecrets([("reason", reason)])
        try write {
            let table = schemaVersion >= Schema.stateRowsVersion ? Tables.retractions.table : Tables.evidence.table
            if try db.first(RowQuery(table, select: ["retracted_seq"], where: [.equals("id", .text(item.id))]))?.optionalInt64("retracted_seq") != nil {
                throw EvidenceError.conflict("Evidence \(item.id) is already retracted. Nothing was changed.")
            }
            try append(.evidenceRetract) { seq, _ in
                ["id": .string(item.id), "retracted_seq": .number(String(seq)), "retracted_reason": .string(reason)]
            }
        }
        return try evidenceItem(item.id)
    }

    /// Refuses an item a run does not take (`RunAdmission`): a finished or abandoned run takes late
    /// notes and attachments only. Call inside `write`, so that a finish recorded by another process
    /// meanwhile is seen. Inside a batch (which holds the write lock) each open run is looked up once.
    func requireAccepts(runId: String, type: EvidenceType) throws {
        if inBatch, batchCache.openRuns.contains(runId) { return }
        try admit(runId: runId, type: type, done: try finish(ofRun: runId), abandoned: try abandonment(ofRun: runId))
    }

    /// `requireAccepts`, then `nextId(spec)`, their reads asked together (`fetchEach`: one round trip on PostgreSQL,
    /// where each is one while the journal's lock is held). Call inside `write`.
    func requireAccepts(runId: String, type: EvidenceType, nextId spec: TableSpec) throws -> String {
        let knownOpen = inBatch && batchCache.openRuns.contains(runId)
        let knownCount = inBatch ? batchCache.lastRowid[spec.table] : nil
        if knownOpen, knownCount != nil { return try nextId(spec) }
        let finishQuery = runFinishQuery(runId)
        let abandonQuery = runAbandonQuery(runId)
        let queries = knownOpen ? [] : [finishQuery] + (abandonQuery.map { [$0] } ?? [])
        let (rows, counts) = try db.fetchEach(queries, rowCounts: knownCount == nil ? [spec] : [])
        if !knownOpen {
            try admit(runId: runId, type: type, done: rows[0].first.map { (try $0.string("finished_at"), try $0.string("outcome")) },
                      abandoned: rows.count > 1 ? rows[1].first.map { (try $0.string("abandoned_at"), try $0.string("reason")) } : nil)
        }
        let n = knownCount ?? counts[0]
        if inBatch { batchCache.lastRowid.set(spec.table, n) }
        return spec.idPrefix + String(n + 1)
    }

    /// The rule of `requireAccepts`, given the run's finish and abandonment as read inside the write.
    private func admit(runId: String, type: EvidenceType, done: (at: String, outcome: String)?, abandoned: (at: String, reason: String)?) throws {
        if done == nil, abandoned == nil {
            if inBatch { batchCache.openRuns.insert(runId) }
            return
        }
        guard !RunAdmission.accepts(type, finished: done != nil, abandoned: abandoned != nil) else { return }
        if let abandoned {
            throw EvidenceError.conflict("Run \(runId) was abandoned at \(abandoned.at) ('\(abandoned.reason)'): it takes notes and attachments only, and is never judged. Record the \(type.rawValue) on a new run of the scenario. Nothing was written.")
        }
        if let done {
            throw EvidenceError.conflict("Run \(runId) was finished at \(done.at) with outcome '\(done.outcome)': a finished run takes late notes and attachments, but no more transactions, receipts or check results. Start a new run of the scenario to record them (abandon this one if it was a mistake). Nothing was written.")
        }
    }

    /// Refuses a write to a run that is finished or abandoned, for anything certifying (a check result):
    /// the rule of `requireAccepts` for callers that record check results.
    func requireOpen(runId: String) throws {
        try requireAccepts(runId: runId, type: .checkResult)
    }

    /// When and why run `runId` was abandoned, if it was.
    func abandonment(ofRun runId: String) throws -> (at: String, reason: String)? {
        guard let query = runAbandonQuery(runId) else { return nil }
        return try db.first(query).map { (try $0.string("abandoned_at"), try $0.string("reason")) }
    }

    /// The read of run `runId`'s abandonment (its time and reason); nil in schemas before abandonments.
    private func runAbandonQuery(_ runId: String) -> RowQuery? {
        guard schemaVersion >= Schema.abandonsVersion else { return nil }
        return RowQuery(Tables.runAbandons.table, select: ["abandoned_at", "reason"], where: [.equals("id", .text(runId))])
    }

    /// Abandons a run started by mistake: one `run.abandon` entry. The run stays in the record (listed
    /// as abandoned) but is never judged, so the scenario is judged on its previous finished run.
    package func abandonRun(id: String, reason: String) throws -> Run {
        let run = try self.run(id)
        try Validate.nonEmpty(reason, field: "reason")
        try Validate.noSecrets([("reason", reason)])
        try write {
            if let done = try abandonment(ofRun: run.id) {
                throw EvidenceError.conflict("Run \(run.id) was already abandoned at \(done.at). Nothing was changed.")
            }
            try append(.runAbandon) { _, at in
                ["id": .string(run.id), "abandoned_at": .string(at), "reason": .string(reason)]
            }
            if inBatch { batchCache.openRuns.remove(run.id) }
        }
        return try self.run(run.id)
    }

    /// When and how run `runId` was finished, if it was.
    private func finish(ofRun runId: String) throws -> (at: String, outcome: String)? {
        try db.first(runFinishQuery(runId)).map { (try $0.string("finished_at"), try $0.string("outcome")) }
    }

    /// The read of run `runId`'s finish (its time and outcome).
    private func runFinishQuery(_ runId: String) -> RowQuery {
        schemaVersion >= Schema.stateRowsVersion
            ? RowQuery(Tables.runFinishes.table, select: ["finished_at", "outcome"], where: [.equals("id", .text(runId))])
            : RowQuery(Tables.runs.table, select: ["finished_at", "outcome"], where: [.equals("id", .text(runId)), .isNotNull("finished_at")])
    }

    /// Refuses, as recording into it would, when run `id` is finished: for callers that do costly
    /// work before they record (live checks). Recording checks again inside its write.
    package func requireOpen(run id: String) throws {
        let run = try self.run(id)
        try read { try requireOpen(runId: run.id) }
    }

    /// The scenario catalog a campaign names.
    package func profileNamed(_ id: String) throws -> Profile {
        let profiles = try self.profiles
        guard let p = profiles[id] else { throw EvidenceError.unknown(what: "profile", value: id, known: profiles.keys.sorted()) }
        return p
    }
}
