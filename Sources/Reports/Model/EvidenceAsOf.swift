import EvidenceModel

/// A campaign's records as they stood at one journal entry: what was recorded later is left out, and a finish
/// or a retraction recorded later is undone.
///
/// The one home of that rule (a new kind of state entry must be undone here too). The reader that fetches the
/// records (`ReportReader` in Services) passes each kind through here; with no entry (`seq` nil) the records
/// are taken as they stand now.
package struct EvidenceAsOf: Sendable, Equatable {
    /// The journal entry the records are cut at; nil: as they stand now.
    package let seq: Int64?

    /// The cut at entry `seq` (nil: none).
    package init(seq: Int64?) {
        self.seq = seq
    }

    /// The runs started by the entry, those finished later open again (`finishedLater`: run ids finished after it).
    package func runs(_ runs: [Run], finishedLater: Set<String>) -> [Run] {
        guard let seq else { return runs }
        return runs.filter { $0.seq <= seq }.map { r in
            guard finishedLater.contains(r.id) else { return r }
            var open = r
            open.finishedAt = nil
            open.outcome = nil
            return open
        }
    }

    /// The devices added by the entry.
    package func devices(_ devices: [Device]) -> [Device] {
        guard let seq else { return devices }
        return devices.filter { $0.seq <= seq }
    }

    /// The store accounts added by the entry.
    package func accounts(_ accounts: [StoreAccount]) -> [StoreAccount] {
        guard let seq else { return accounts }
        return accounts.filter { $0.seq <= seq }
    }

    /// The items recorded by the entry, in journal order, those retracted later live again.
    package func evidence(_ items: [EvidenceItem]) -> [EvidenceItem] {
        let ordered = items.sorted { $0.seq < $1.seq }
        guard let seq else { return ordered }
        return ordered.filter { $0.seq <= seq }.map { e in
            guard let retracted = e.retractedSeq, retracted > seq else { return e }
            var live = e
            live.retractedSeq = nil
            live.retractedReason = nil
            return live
        }
    }

    /// The clock readings recorded by the entry.
    package func clocks(_ clocks: [RunClock]) -> [RunClock] {
        guard let seq else { return clocks }
        return clocks.filter { $0.seq <= seq }
    }
}
