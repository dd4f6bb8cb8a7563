/// What verify's replay does with the entries of one kind, worked out once per verify from the kind's effect
/// (`JournalKind.effect(schemaVersion:)`) and the tables (`Tables`), instead of at each of a million entries: which
/// table it writes, which table's row it belongs to, and which write rule it is checked against. A replay keeps each
/// table's state (its ids, its comparison with the table as it is) by slot, an index, not by the table's name.
final class ReplayPlan {
    /// The write rule a growcert command applies before it inserts a row of a table, as verify replays it.
    enum Rule: Equatable {
        case none, importKey, campaign, run, runFinish, runAbandon, evidence, report

        init(table: String) {
            switch table {
            case Tables.evidenceImports.table: self = .importKey
            case Tables.campaigns.table: self = .campaign
            case Tables.runs.table: self = .run
            case Tables.runFinishes.table: self = .runFinish
            case Tables.runAbandons.table: self = .runAbandon
            case Tables.evidence.table: self = .evidence
            case Tables.reports.table: self = .report
            default: self = .none
            }
        }
    }

    let kind: JournalKind
    /// The kind as the journal's `kind` column holds it.
    let kindBytes: [UInt8]
    let effect: JournalKind.Effect
    /// The slot of the table the entry inserts into or updates; -1 for a kind that touches no table.
    let slot: Int
    /// The table whose row an inserted state row belongs to (`Tables.parent`: a finish names a run), and its slot.
    let parent: (table: String, slot: Int)?
    /// For rows of tables added by a later migration, the column that names the row they belong to, its table and slot.
    let owner: (column: String, table: String, slot: Int)?
    /// The rule an insert is checked against (`.none` for other entries).
    let rule: Rule

    init(kind: JournalKind, kindBytes: [UInt8], effect: JournalKind.Effect, slot: Int, parent: (table: String, slot: Int)?,
         owner: (column: String, table: String, slot: Int)?, rule: Rule) {
        (self.kind, self.kindBytes, self.effect, self.slot, self.parent, self.owner, self.rule) = (kind, kindBytes, effect, slot, parent, owner, rule)
    }

    /// The plans of every kind, in `JournalKind.allCases` order, for a database at `schemaVersion`; `index` finds a
    /// kind's plan, and `slots` numbers every table a plan or the version's schema names.
    static func plans(schemaVersion: Int) -> (byKind: [ReplayPlan], index: [JournalKind: Int], slots: [String: Int]) {
        var slots: [String: Int] = [:]
        func slot(_ table: String) -> Int {
            if let s = slots[table] { return s }
            slots[table] = slots.count
            return slots.count - 1
        }
        for spec in Tables.all(schemaVersion: schemaVersion) { _ = slot(spec.table) }
        let owners = [Tables.campaignUpdates.table: (column: "campaign_id", table: Tables.campaigns.table),
                      Tables.runClocks.table: (column: "run_id", table: Tables.runs.table)]
        var byKind: [ReplayPlan] = []
        var index: [JournalKind: Int] = [:]
        for kind in JournalKind.allCases {
            let effect = kind.effect(schemaVersion: schemaVersion)
            var plan = (slot: -1, parent: nil as (table: String, slot: Int)?, owner: nil as (column: String, table: String, slot: Int)?, rule: Rule.none)
            switch effect {
            case .none: break
            case .update(let spec, _): plan.slot = slot(spec.table)
            case .insert(let spec):
                plan.slot = slot(spec.table)
                plan.parent = Tables.parent(of: spec).map { ($0.table, slot($0.table)) }
                plan.owner = owners[spec.table].map { ($0.column, $0.table, slot($0.table)) }
                plan.rule = Rule(table: spec.table)
            }
            index[kind] = byKind.count
            byKind.append(ReplayPlan(kind: kind, kindBytes: Array(kind.rawValue.utf8), effect: effect, slot: plan.slot,
                                     parent: plan.parent, owner: plan.owner, rule: plan.rule))
        }
        return (byKind, index, slots)
    }
}
