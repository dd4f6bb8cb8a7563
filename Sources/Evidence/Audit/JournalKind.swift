/// A journal entry kind and what it does to the query tables.
enum JournalKind: String, Sendable, CaseIterable {
    case storeInit = "store.init"
    case campaignCreate = "campaign.create"
    case deviceAdd = "device.add"
    case accountAdd = "account.add"
    case runStart = "run.start"
    case runFinish = "run.finish"
    case evidenceAdd = "evidence.add"
    case evidenceRetract = "evidence.retract"
    case reportRender = "report.render"
    case signoffAdd = "signoff.add"
    case signerAdd = "signer.add"
    case anchorAdd = "anchor.add"
    /// Records the id (a SHA-256) of the masking key an older database kept in `meta` when it moved out of the file.
    case storeMaskKey = "store.mask-key"
    /// A change of a campaign's base URL, SDK, project or name: a row of `campaign_updates` (never an UPDATE).
    case campaignUpdate = "campaign.update"
    /// A run abandoned as started by mistake: a row of `run_abandons`; the run is never judged.
    case runAbandon = "run.abandon"
    /// A reading of the Sandbox's clock as a run starts (with the run's nonce) or finishes: a row of `run_clocks`.
    case runClock = "run.clock"
    /// The import key of the item the entry before it added (`evidence import`): a row of `evidence_imports`.
    case evidenceImport = "evidence.import"

    enum Effect { case none, insert(TableSpec), update(TableSpec, columns: [String]) }

    /// What the entry does to the query tables of a database at the current schema version (the one growcert writes).
    var effect: Effect { effect(schemaVersion: Schema.currentVersion) }

    /// What the entry does to the query tables of a database at `schemaVersion`: before
    /// `Schema.stateRowsVersion` a finish and a retraction updated their row; from it on they
    /// insert a row of their own, and nothing is ever updated.
    func effect(schemaVersion: Int) -> Effect {
        let stateRows = schemaVersion >= Schema.stateRowsVersion
        switch self {
        case .runFinish where stateRows: return .insert(Tables.runFinishes)
        case .evidenceRetract where stateRows: return .insert(Tables.retractions)
        case .storeInit, .storeMaskKey: return .none
        case .campaignCreate: return .insert(Tables.campaigns(schemaVersion: schemaVersion))
        case .deviceAdd: return .insert(Tables.devices)
        case .accountAdd: return .insert(Tables.accounts)
        case .runStart: return .insert(Tables.runs)
        case .runFinish: return .update(Tables.runs, columns: ["finished_at", "outcome", "note"])
        case .evidenceAdd: return .insert(Tables.evidence)
        case .evidenceRetract: return .update(Tables.evidence, columns: ["retracted_seq", "retracted_reason"])
        case .reportRender: return .insert(Tables.reports)
        case .signoffAdd: return .insert(Tables.signoffs)
        case .signerAdd: return .insert(Tables.signers)
        case .anchorAdd: return .insert(Tables.anchors)
        case .campaignUpdate: return .insert(Tables.campaignUpdates)
        case .runAbandon: return .insert(Tables.runAbandons)
        case .runClock: return .insert(Tables.runClocks)
        case .evidenceImport: return .insert(Tables.evidenceImports)
        }
    }

    /// Report renders are bookkeeping, not evidence: they do not move the evidence head,
    /// so rendering twice without new evidence gives the same bytes.
    /// Timestamp anchors are bookkeeping too: anchoring the head does not change what a report says.
    var isEvidence: Bool { self != .reportRender && self != .anchorAdd }

    /// Whether an entry of this kind can change a campaign's verdict: what makes a report (and a
    /// sign-off of it) out of date. Sign-offs, signers, renders and anchors do not. A campaign update changes
    /// what the report says about the campaign (its target, its SDK), so it does.
    var isCampaignEvidence: Bool {
        switch self {
        case .campaignCreate, .campaignUpdate, .deviceAdd, .accountAdd, .runStart, .runClock, .runFinish, .runAbandon, .evidenceAdd, .evidenceRetract: return true
        case .storeInit, .storeMaskKey, .reportRender, .signoffAdd, .signerAdd, .anchorAdd, .evidenceImport: return false
        }
    }
}
