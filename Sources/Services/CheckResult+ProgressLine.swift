import Checks

extension CheckResult {
    /// The one line a finished check prints while checks run (`check run`, `demo`):
    /// `PASS id (12 ms)`, `FAIL id (12 ms): reason`, `WAIT id (12 ms): reason`.
    package var progressLine: String {
        "\(outcome.isPassed ? "PASS" : outcome.isWaiting ? "WAIT" : "FAIL") \(checkId) (\(durationMilliseconds) ms)" + (outcome.reason.map { ": \($0)" } ?? "")
    }
}
