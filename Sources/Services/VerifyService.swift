import Checks
import Evidence
import Foundation
import HTTPCore
import StoreProof

/// The one full check of an evidence database: what `growcert verify` runs, and what
/// `report render`, `report verify`, `signoff` and `demo` run before they trust the evidence.
///
/// `EvidenceStore.verify` checks what the store alone can know (schema, chain, tables, blobs,
/// reports, sign-off signatures and their rows, stored timestamp tokens); checks against anchors
/// kept outside the file (expected heads, exported sign-offs, an allowed-signers list, a TSA's CA)
/// are added here, so that every caller gets all of them.
package struct VerifyService {
    /// The evidence store verified.
    package let store: EvidenceStore
    /// Re-verifies stored App Store transactions (Apple Root CA - G3 unless a test injects its own root).
    package var jwsVerifier = JWSVerifier()

    /// The provenances only a verified App Store JWS can give: an item claiming one must hold the JWS that proves it.
    package static let jwsProvenances = Set(AppleSigner.allCases.map(TransactionEvidence.provenance))
    /// Journal heads the caller holds from outside the file (a report, a statement, a token): each must be an entry.
    package var expectedHeads: [String] = []
    /// Exported sign-offs (`signoff export` folders): each must be in the journal, intact.
    package var statementDirs: [String] = []
    /// Timestamp tokens kept outside the file (`anchor --out`): each must verify, and its head be an entry.
    package var tokens: [(path: String, der: [UInt8])] = []
    /// An allowed-signers file: every sign-off must be by one of its signers.
    package var allowedSigners: (path: String, signers: AllowedSigners)?
    /// A timestamp CA (PEM): every stored token's chain must verify to it.
    package var tsaCA: (path: String, pem: String)?
    /// The trust anchors live-hosted chains are re-validated against: this machine's trust store unless a test injects its own.
    package var serverTrust = ServerChainTrust()
    /// Re-judge every stored report at its evidence seq with this growcert's rules (`StoredVerdictCheck`).
    package var rejudgesReports = true

    /// The full check of `store`, with the anchors kept outside it that the caller holds.
    package init(store: EvidenceStore, jwsVerifier: JWSVerifier = JWSVerifier(), expectedHeads: [String] = [], statementDirs: [String] = [],
                tokens: [(path: String, der: [UInt8])] = [], allowedSigners: (path: String, signers: AllowedSigners)? = nil,
                tsaCA: (path: String, pem: String)? = nil, serverTrust: ServerChainTrust = ServerChainTrust()) {
        self.store = store
        self.serverTrust = serverTrust
        self.jwsVerifier = jwsVerifier
        self.expectedHeads = expectedHeads
        self.statementDirs = statementDirs
        self.tokens = tokens
        self.allowedSigners = allowedSigners
        self.tsaCA = tsaCA
    }

    /// Runs every check; `progress` is called with the number of journal entries read so far.
    package func run(progress: ((Int) -> Void)? = nil, whileIntegrityRuns alsoRead: (() -> Void)? = nil) throws -> VerificationResult {
        // A stored value of a type growcert never writes stops the read that meets it: tampering, reported as found.
        func found(_ error: EvidenceError) -> VerificationProblem? { error.storedValueProblem.map { VerificationProblem(seq: nil, message: $0) } }
        var result: VerificationResult
        var early = EarlyReads()
        do {
            result = try store.verify(progress: progress, whileIntegrityRuns: { sound in
                early.items = Result { try store.evidence(types: Self.recheckedTypes) }
                // What is used only over a database that holds, read only while everything so far does.
                guard sound else { return }
                if rejudgesReports { early.mismatches = Result { try StoredVerdictCheck(store: store).mismatches() } }
                alsoRead?()
            })
        } catch let error as EvidenceError {
            guard let problem = found(error) else { throw error }
            return .stopped([problem])
        }
        do {
            try runChecks(into: &result, early: early)
        } catch let error as EvidenceError {
            guard let problem = found(error) else { throw error }
            result.problems.append(problem)
        }
        return result
    }

    /// The types of the items the re-checks read: store proofs and the Sandbox's identity.
    private static let recheckedTypes: [EvidenceType] = [.transaction, .checkResult, .receipt]

    /// What `run` reads while SQLite's integrity check finishes on its own thread (`EvidenceStore.verify`'s
    /// `whileIntegrityRuns`), in the replay's snapshot, for the checks after it: the items of `recheckedTypes` (one read
    /// of the evidence table, which has no index by type) and, while everything checked so far holds, the stored
    /// reports' verdicts judged again. Each is read after verify instead where it was not read then (PostgreSQL).
    private struct EarlyReads {
        var items: Result<[(item: EvidenceItem, appId: String)], any Error>?
        var mismatches: Result<[StoredVerdictCheck.Mismatch], any Error>?
    }

    /// Every check after the store's own verify, adding to `result`; `early` holds what was read while it ran.
    private func runChecks(into result: inout VerificationResult, early: EarlyReads) throws {
        let items = try (early.items ?? Result { try store.evidence(types: Self.recheckedTypes) }).get()
        // The rows' times: settled by the replay when it found every table as the journal says and every row's time
        // the same bytes as its entry's (`rowTimesMatchEntries`: 0 s apart, within any skew from 0); read and compared
        // row by row otherwise, and always where the replay found anything wrong, so that tampering is worded as it is.
        let settled = result.problems.isEmpty && result.rowTimesMatchEntries
        result.problems += try storeProofProblems(items: items)
        result.problems += try identityProblems(items: items)
        let skew = try journalSkew()
        if !settled || skew < 0 {
            result.problems += try store.snapshot { try rowTimeProblems(page: Self.timePage, runPage: Self.runPage) }
        }
        // The journal's order of times: from the neighbours the replay could not tell are in order, where it gathered
        // them (only those can go backwards by a skew from 0); else read entry by entry.
        if let pairs = result.journalTimePairs, skew >= 0 {
            result.warnings += pairs.compactMap { Self.backwardsWarning(previousSeq: $0.previousSeq, previousAt: $0.previousAt, seq: $0.seq, at: $0.at, skew: skew) }
        } else {
            result.warnings += try store.snapshot { try journalOrderWarnings(skew: skew) }
        }
        // A verdict is re-judged only over a database whose chain and tables hold: over a broken one it means nothing.
        if rejudgesReports, result.ok {
            result.problems += try (early.mismatches ?? Result { try StoredVerdictCheck(store: store).mismatches() }).get().map {
                VerificationProblem(seq: $0.seq, message: "report \($0.reportId): \($0)")
            }
        }
        for head in expectedHeads where try store.journalEntry(hash: head) == nil {
            result.problems.append(VerificationProblem(seq: nil, message: "the expected head \(head) is not an entry of the journal: entries were deleted, or the chain was rebuilt"))
        }
        for dir in statementDirs { result.problems += try checkExported(dir) }
        for (path, der) in tokens {
            do {
                let head = try TimestampToken.head(ofToken: der, caPEM: tsaCA?.pem).head
                if try store.journalEntry(hash: head) == nil {
                    result.problems.append(VerificationProblem(seq: nil, message: "timestamp token '\(path)': the head it timestamps (\(head)) is not an entry of the journal: entries were deleted, or the chain was rebuilt"))
                }
            } catch {
                result.problems.append(VerificationProblem(seq: nil, message: "timestamp token '\(path)': \(error)"))
            }
        }
        if let (path, allowed) = allowedSigners {
            for s in try store.signoffs() {
                let name = s.signed?.name ?? s.name
                if allowed.allows(principal: name, publicKey: s.publicKey) == nil {
                    result.problems.append(VerificationProblem(seq: s.seq, message: "sign-off \(s.id) by '\(name)' (key \(s.keyId)) is not by a signer that '\(path)' allows"))
                }
            }
        }
        if let (path, pem) = tsaCA {
            for a in try store.anchors() {
                guard let der = Data(base64Encoded: a.token) else { continue }  // store.verify reports it
                do { _ = try TimestampToken.verify(token: [UInt8](der), head: a.headHash, caPEM: pem) } catch {
                    result.problems.append(VerificationProblem(seq: a.seq, message: "anchor \(a.id): \(error) ('\(path)')"))
                }
            }
        }
    }

    /// Problems with one exported sign-off folder (statement.json, statement.sig, public.pem).
    package func checkExported(_ dir: String) throws -> [VerificationProblem] {
        func read(_ name: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: dir + "/" + name) else {
                throw ServiceError.exportedSignoffUnreadable(folder: dir, file: name)
            }
            return data
        }
        let text = String(decoding: try read("statement.json"), as: UTF8.self)
        let signature = [UInt8](try read("statement.sig"))
        let publicKey = String(decoding: try read("public.pem"), as: UTF8.self)
        func problem(_ m: String) -> VerificationProblem { VerificationProblem(seq: nil, message: "exported sign-off '\(dir)': \(m)") }
        guard Ed25519.verify(signature, message: Array(text.utf8), publicKeyPEM: publicKey) else {
            return [problem("the signature in statement.sig does not verify over statement.json with public.pem")]
        }
        guard let statement = SignoffStatement(text: text) else { return [problem("statement.json is not a growcert sign-off statement")] }
        var problems: [VerificationProblem] = []
        let key = Ed25519.normalizedPublicKeyPEM(publicKey)
        let stored = try store.signoffs().first { $0.statement == text && Data(base64Encoded: $0.signature).map([UInt8].init) == signature && $0.publicKey == key }
        if stored == nil {
            problems.append(problem("this signed \(statement.decision) by '\(statement.name)' is not in the journal: it was deleted, or comes from another database"))
        }
        for (what, head) in [("journal head", Optional(statement.journalHead)), ("database head", statement.databaseHead)] {
            guard let head else { continue }
            if try store.journalEntry(hash: head) == nil {
                problems.append(problem("the \(what) it signed (\(head)) is not an entry of the journal: entries were deleted, or the chain was rebuilt"))
            }
        }
        return problems
    }

    /// Re-verifies every stored store-signed transaction and compares what its JWS proves with what is stored.
    ///
    /// The chain has no secret: whoever holds the file can edit an item's provenance or details and
    /// recompute every hash, and the chain check alone then passes. The JWS is the one part nobody
    /// can forge, so the stored provenance and details must be exactly what `TransactionEvidence.apple`
    /// makes of it today. The verifier judges certificate validity at the transaction's own
    /// `signedDate`, never at the time of checking, so evidence recorded months ago still verifies.
    /// Only the transaction items of `items` are read.
    package func storeProofProblems(items: [(item: EvidenceItem, appId: String)]) throws -> [VerificationProblem] {
        // Without a transaction there is nothing to check, and every run need not be read (100,000 of them: a fifth of a
        // second of each verify; docs/performance.md, "tenth round").
        guard items.contains(where: { $0.item.type == .transaction }) else { return [] }
        var problems: [VerificationProblem] = []
        // Every Play license key each run's campaign has recorded, oldest first: a purchase recorded before a key
        // changed verifies with the key it was recorded under.
        var playKeysOfRun: [String: [String]] = [:]
        for campaign in try store.campaigns() {
            let keys = try store.campaignUpdates(campaignId: campaign.id).flatMap(\.changes)
                .filter { $0.field == CampaignField.playLicenseKey.rawValue }.map(\.to)
            for run in try store.runs(campaignId: campaign.id) { playKeysOfRun[run.id] = keys }
        }
        for (item, appId) in items where item.type == .transaction {
            let details = item.details(as: TransactionDetails.self)
            if item.provenance == .storeSignedGoogle || details.source == TransactionEvidence.playBillingSource {
                if let message = checkGoogle(item, appId: appId, keys: playKeysOfRun[item.runId] ?? []) {
                    problems.append(VerificationProblem(seq: item.seq, message: "evidence \(item.id) (transaction): \(message)"))
                }
                continue
            }
            if details.isNotification {
                if let message = checkNotification(item, appId: appId) {
                    problems.append(VerificationProblem(seq: item.seq, message: "evidence \(item.id) (transaction): \(message)"))
                }
                continue
            }
            if let message = check(item, appId: appId) {
                problems.append(VerificationProblem(seq: item.seq, message: "evidence \(item.id) (transaction): \(message)"))
            }
        }
        return problems
    }

    /// Re-derives every `live-hosted` label from the facts recorded beside it (`RecordedIdentity`): check results, the
    /// receipts a check recorded, and the runs' readings of the Sandbox's clock. A label its own facts contradict was not
    /// written by growcert's recorder: tampering, even when the chain was recomputed over it. Each exchange such a label
    /// rests on must also re-validate here: its recorded certificate chain, for its host name, at its time, against this
    /// machine's trust store and the pins (`RecordedIdentity.unvalidated`); one that does not is not live-hosted, and
    /// verify refuses the label (see docs/auditing.md for why that is a verification failure).
    /// Only the check results and receipts of `items` are read.
    package func identityProblems(items: [(item: EvidenceItem, appId: String)]) throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        var pinsOfRun: [String: [String]] = [:]
        var runIds: [String] = []
        // Every run's pins are needed by a live-hosted check result or a reading of the Sandbox's clock; without either,
        // every run need not be read (docs/performance.md, "tenth round").
        let readsClocks = try store.hasRunClocks()
        if readsClocks || items.contains(where: { $0.item.type == .checkResult && $0.item.provenance == .liveHosted }) {
            for campaign in try store.campaigns() {
                let pins = (try? store.profileNamed(campaign.profile).sandboxPins(for: campaign)) ?? campaign.sandboxPins
                for run in try store.runs(campaignId: campaign.id) {
                    pinsOfRun[run.id] = pins
                    runIds.append(run.id)
                }
            }
        }
        var checks: [String: [EvidenceItem]] = [:]
        for (item, _) in items where item.type == .checkResult {
            checks[item.runId, default: []].append(item)
            guard item.provenance == .liveHosted else { continue }
            let d = item.details(as: CheckResultDetails.self)
            let pins = pinsOfRun[item.runId] ?? []
            if let why = RecordedIdentity.contradiction(identity: d.identity, exchanges: d.probe + d.transcript, pins: pins)
                ?? RecordedIdentity.unvalidated(exchanges: d.probe + d.transcript, pins: pins, trust: serverTrust) {
                problems.append(VerificationProblem(seq: item.seq, message: "evidence \(item.id) (check result) is labelled live-hosted, but \(why)"))
            }
        }
        for (item, _) in items where item.type == .receipt && item.provenance == .liveHosted {
            // A check records its receipt right after its own result, with the result's provenance.
            let recorder = checks[item.runId]?.last { $0.seq < item.seq }
            if recorder?.provenance != .liveHosted {
                problems.append(VerificationProblem(seq: item.seq, message: "evidence \(item.id) (receipt) is labelled live-hosted, but no live-hosted check result recorded it (\(recorder.map { "the check before it is \($0.provenance.rawValue)" } ?? "no check result came before it on run \(item.runId)"))"))
            }
        }
        for clock in try readsClocks ? store.runClocks(runIds: runIds) : [] where clock.reading.provenance == .liveHosted {
            let reading = clock.reading
            let exchanges = reading.exchange.map { [$0] } ?? []
            var why = RecordedIdentity.contradiction(identity: reading.identity, exchanges: exchanges, pins: pinsOfRun[clock.runId] ?? [])
                ?? RecordedIdentity.unvalidated(exchanges: exchanges, pins: pinsOfRun[clock.runId] ?? [], trust: serverTrust)
            if why == nil, let sandbox = reading.sandboxTime.flatMap(Timestamp.milliseconds),
               reading.exchange?.dateMilliseconds != sandbox {
                why = "its Sandbox time \(reading.sandboxTime ?? "") is not the Date header of its exchange (\(reading.exchange?.date ?? "none"))"
            }
            if let why {
                problems.append(VerificationProblem(seq: clock.seq, message: "run \(clock.runId)'s \(clock.event.rawValue) clock reading is labelled live-hosted, but \(why)"))
            }
        }
        return problems
    }

    /// What is wrong with one Play Billing signed transaction item, or nil: its signature must verify with a license
    /// key its campaign recorded, and its provenance and details must be what `TransactionEvidence.googleSigned` makes of it.
    private func checkGoogle(_ item: EvidenceItem, appId: String, keys: [String]) -> String? {
        let details = item.details(as: TransactionDetails.self)
        guard let json = details.signedPayload, let signature = details.googleSignature else {
            return "provenance '\(item.provenance.rawValue)' is recorded, but the item holds no Play Billing purchase and signature that prove it"
        }
        var lastError = "the campaign has no Play license key"
        for key in keys.reversed() {
            guard let der = Data(base64Encoded: key) else { continue }
            let purchase: GooglePlaySignedPurchase
            do {
                purchase = try GooglePlaySignedPurchase.verify(json: Data(json.utf8), signatureFile: Data(signature.utf8),
                                                               key: try GooglePlayLicenseKey(der: [UInt8](der)), expectedPackage: appId)
            } catch {
                lastError = String(describing: error)
                continue
            }
            let expected = TransactionEvidence.googleSigned(purchase, runId: item.runId, orderId: details.orderId)
            if expected.provenance != item.provenance {
                return "provenance is recorded as '\(item.provenance.rawValue)', but its Play Billing signature proves '\(expected.provenance.rawValue)'"
            }
            let stored = item.details.objectValue ?? [:]
            let proven = expected.details.objectValue ?? [:]
            let differing = Set(stored.keys).union(proven.keys).filter { stored[$0] != proven[$0] }.sorted()
            return differing.isEmpty ? nil : "the stored details differ from what its Play Billing signature proves: \(differing.joined(separator: ", "))"
        }
        return "its stored Play Billing purchase does not verify with a Play license key its campaign recorded: \(lastError)"
    }

    /// What is wrong with one recorded App Store Server Notification, or nil: its JWS must verify and give exactly
    /// the provenance and details stored.
    private func checkNotification(_ item: EvidenceItem, appId: String) -> String? {
        let details = item.details(as: TransactionDetails.self)
        guard let token = details.signedPayload else { return "it holds no App Store Server Notification JWS" }
        let verified: VerifiedAppleNotification
        do {
            verified = try jwsVerifier.verifyNotification(token, expectedBundleId: appId)
        } catch {
            return "its stored App Store Server Notification does not verify: \(error)"
        }
        let expected = TransactionEvidence.notification(verified, runId: item.runId)
        if expected.provenance != item.provenance {
            return "provenance is recorded as '\(item.provenance.rawValue)', but its notification JWS proves '\(expected.provenance.rawValue)'"
        }
        let stored = item.details.objectValue ?? [:]
        let proven = expected.details.objectValue ?? [:]
        let differing = Set(stored.keys).union(proven.keys).filter { stored[$0] != proven[$0] }.sorted()
        return differing.isEmpty ? nil : "the stored details differ from what its notification JWS proves: \(differing.joined(separator: ", "))"
    }

    /// How many of a run's items the time check reads at once.
    static let timePage = 10_000
    /// How many of a campaign's runs the time check reads at once.
    static let runPage = 1_000

    /// Rows whose time is further from their own journal entry's than the profile's skew (problems: changed after they
    /// were recorded), and journal entries dated before the one before them (warnings: the recording clock moved).
    /// A run's items are read `page` at a time and a campaign's runs `runPage` at a time, all of them in one snapshot of
    /// the store: the rows and entries compared belong together while another process records, and a store opened for
    /// reading checks once, not at each of the check's reads (three a run), that no writer came meanwhile.
    package func timeProblems(page: Int = timePage, runPage: Int = runPage) throws -> TimeProblems {
        try store.snapshot { (try rowTimeProblems(page: page, runPage: runPage), try journalOrderWarnings(skew: try journalSkew())) }
    }

    /// What the time check finds: problems (rows changed after they were recorded) and warnings (the clock moved).
    package typealias TimeProblems = (problems: [VerificationProblem], warnings: [VerificationProblem])
    /// The time check's rows against their entries (problems, by seq). Call inside `store.snapshot`.
    func rowTimeProblems(page: Int, runPage: Int) throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        /// What a compared row is, to name it in a problem (a run's million items are not named one by one to be compared).
        enum RowName {
            case runStart(String), runFinish(String), item(String), clock(runId: String, event: String)

            var text: String {
                switch self {
                case .runStart(let id): return "run \(id)'s start time"
                case .runFinish(let id): return "run \(id)'s finish time"
                case .item(let id): return "evidence \(id)'s recorded time"
                case .clock(let runId, let event): return "run \(runId)'s \(event) clock reading's recorded time"
                }
            }
        }
        /// Rows waiting to be compared with their entries' times: gathered across runs (one lookup of their entries
        /// for many runs, not two for each), and compared once there are a page of them: nothing here grows with the
        /// journal.
        var rows: [(seq: Int64, time: String, name: RowName)] = []
        func compare(skew: Int) throws {
            let at = try store.journalTimes(seqs: rows.map(\.seq))
            for row in rows {
                guard let entryAt = at[row.seq] else { continue }  // the chain check reports a missing entry
                if let apart = JournalTime.disagreement(time: row.time, entryAt: entryAt, skewSeconds: skew) {
                    problems.append(VerificationProblem(seq: row.seq, message: "\(row.name.text) \(row.time) is \(apart) s away from its journal entry's time \(entryAt), more than the \(skew) s skew: the row was changed after it was recorded"))
                }
            }
            rows.removeAll(keepingCapacity: true)
        }
        for campaign in try store.campaigns() {
            let skew = outsideClockSkew(of: campaign)
            // The campaign's runs a page at a time: a campaign may hold 100,000 of them, and the check holds little.
            var afterRun: Int64 = 0
            while true {
                let runs = try store.runs(campaignId: campaign.id, after: afterRun, limit: runPage)
                guard let lastRun = runs.last else { break }
                afterRun = lastRun.seq
                for run in runs {
                    rows.append((run.seq, run.startedAt, .runStart(run.id)))
                    if let finishSeq = run.finishSeq, let finishedAt = run.finishedAt { rows.append((finishSeq, finishedAt, .runFinish(run.id))) }
                    // A run's items a page at a time: a run may hold a million of them.
                    var after: Int64 = 0
                    while true {
                        let items = try store.evidenceTimes(runId: run.id, after: after, limit: page)
                        rows += items.map { ($0.seq, $0.recordedAt, .item($0.id)) }
                        if rows.count >= page { try compare(skew: skew) }
                        guard items.count == page, let last = items.last else { break }
                        after = last.seq
                    }
                }
                for batch in stride(from: 0, to: runs.count, by: 500) {
                    let clocks = try store.runClocks(runIds: runs[batch..<min(batch + 500, runs.count)].map(\.id))
                    rows += clocks.map { ($0.seq, $0.recordedAt, .clock(runId: $0.runId, event: $0.event.rawValue)) }
                    if rows.count >= page { try compare(skew: skew) }
                }
            }
            try compare(skew: skew)
        }
        return problems.sorted { ($0.seq ?? 0) < ($1.seq ?? 0) }
    }

    /// The skew a campaign's rows and entries are judged with: its profile's, or the default for a profile this growcert
    /// does not know.
    private func outsideClockSkew(of campaign: Campaign) -> Int {
        (try? store.profileNamed(campaign.profile).rules.outsideClockSkewSeconds) ?? VerdictRules.defaultOutsideClockSkewSeconds
    }

    /// The skew the journal's order is judged with: the smallest of the campaigns'.
    private func journalSkew() throws -> Int {
        try store.campaigns().map(outsideClockSkew).min() ?? VerdictRules.defaultOutsideClockSkewSeconds
    }

    /// The journal's entries dated further before the entry before them than `skew`, read entry by entry. Call inside
    /// `store.snapshot`.
    private func journalOrderWarnings(skew: Int) throws -> [VerificationProblem] {
        var warnings: [VerificationProblem] = []
        var next: Int64 = 1
        var previous: (seq: Int64, at: String)?
        while true {
            let page = try store.journalTimes(from: next, limit: 1000)
            guard let last = page.last else { break }
            for entry in page {
                if let previous, let warning = Self.backwardsWarning(previousSeq: previous.seq, previousAt: previous.at, seq: entry.seq, at: entry.at, skew: skew) {
                    warnings.append(warning)
                }
                previous = entry
            }
            next = last.seq + 1
        }
        return warnings
    }

    /// The warning for entry `seq` dated `at`, when that is more than `skew` seconds before the entry before it.
    static func backwardsWarning(previousSeq: Int64, previousAt: String, seq: Int64, at: String, skew: Int) -> VerificationProblem? {
        guard let back = JournalTime.backwards(previousAt: previousAt, at: at, skewSeconds: skew) else { return nil }
        return VerificationProblem(seq: seq, message: "the journal's time goes backwards: entry \(seq) is dated \(at), \(back) s before entry \(previousSeq) (\(previousAt)), more than the \(skew) s skew: the recording machine's clock was moved between them")
    }

    /// What is wrong with one transaction item, or nil.
    private func check(_ item: EvidenceItem, appId: String) -> String? {
        let details = item.details(as: TransactionDetails.self)
        let claimsJWS = Self.jwsProvenances.contains(item.provenance) || item.details[TransactionDetails.Key.signedPayload.rawValue] != nil
            || details.source == "jws"
        guard claimsJWS else { return nil }
        guard let token = details.signedPayload else {
            return "provenance '\(item.provenance.rawValue)' is recorded, but the item holds no App Store JWS that proves it"
        }
        let verified: VerifiedAppleTransaction
        do {
            verified = try jwsVerifier.verify(token, expectedBundleId: appId)
        } catch {
            return "its stored App Store JWS does not verify: \(error)"
        }
        let expected = TransactionEvidence.apple(verified, runId: item.runId, orderId: details.orderId)
        if expected.provenance != item.provenance {
            return "provenance is recorded as '\(item.provenance.rawValue)', but its JWS proves '\(expected.provenance.rawValue)'"
        }
        let stored = item.details.objectValue ?? [:]
        let proven = expected.details.objectValue ?? [:]
        let differing = Set(stored.keys).union(proven.keys).filter { stored[$0] != proven[$0] }.sorted()
        if !differing.isEmpty {
            return "the stored details differ from what its JWS proves: \(differing.joined(separator: ", "))"
        }
        return nil
    }

    /// Runs every check and refuses to go on (`ServiceError.notIntact`) when any fails: what judging
    /// evidence (`report render`, `signoff`) does first, so that no verdict or approval rests on
    /// a database edited behind the tool's back.
    package func requireIntact(before action: String, whileIntegrityRuns alsoRead: (() -> Void)? = nil) throws {
        let result = try run(whileIntegrityRuns: alsoRead)
        guard let first = result.problems.first else { return }
        throw ServiceError.notIntact(action: action, first: first, count: result.problems.count)
    }
}
