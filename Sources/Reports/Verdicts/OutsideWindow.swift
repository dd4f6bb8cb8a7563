import EvidenceModel

/// A run's outside window: from the hosted Sandbox's clock as the run started to its clock as the run ended, each
/// widened by the profile's skew (`outsideClockSkewSeconds`). Only clocks outside the QA machine make it: the
/// live-hosted `Date` of the run's clock readings and of its live-hosted check results' exchanges.
///
/// The start is the live-hosted reading taken by `run start`; a run without one has no window, and no store
/// purchase can be shown to be made in it. The end is the latest of the live-hosted reading taken by `run finish`
/// and the `Date` of every live-hosted exchange recorded on the run (a run finished offline still ends no earlier
/// than its last live answer).
struct OutsideWindow: Sendable {
    /// Where a time lies against the window.
    enum Placement: Equatable {
        case inside
        case before
        case after
    }

    /// The hosted Sandbox's time as the run started, in milliseconds.
    let start: Int64
    /// The latest hosted Sandbox time seen on the run, in milliseconds (never before `start`).
    let end: Int64
    /// The skew in milliseconds.
    let skew: Int64

    /// The window of `run`, or nil when no live-hosted reading of the Sandbox's clock marks its start.
    init?(run: Run, clocks: [RunClock], live: [EvidenceItem], skewSeconds: Int) {
        let own = clocks.filter { $0.runId == run.id }
        guard let start = own.first(where: { $0.event == .start })?.reading.outsideMilliseconds else { return nil }
        var end = start
        for clock in own { if let t = clock.reading.outsideMilliseconds { end = max(end, t) } }
        for item in live where item.type == .checkResult && item.provenance == .liveHosted {
            let d = item.details(as: CheckResultDetails.self)
            for exchange in d.probe + d.transcript where exchange.status != nil {
                if let t = exchange.dateMilliseconds { end = max(end, t) }
            }
        }
        self.start = start
        self.end = end
        skew = Int64(skewSeconds) * 1000
    }

    /// Where `milliseconds` lies: inside `[start − skew, end + skew]`, before it or after it.
    func place(_ milliseconds: Int64) -> Placement {
        if milliseconds < start - skew { return .before }
        if milliseconds > end + skew { return .after }
        return .inside
    }

    /// The parameters every window reason names: the run, both ends on the Sandbox's clock, and the skew.
    func parameters(run: Run) -> [String: String] {
        ["run": run.id, "outsideStart": Timestamp.string(millisecondsSince1970: start),
         "outsideEnd": Timestamp.string(millisecondsSince1970: end), "skewSeconds": String(skew / 1000)]
    }
}
