import EvidenceModel

/// Judges one named requirement of a scenario (a profile's `requires` entry) on its judged run.
///
/// Each evaluator is a small value in `RequirementRegistry`; a new rule for a new vendor is a new
/// evaluator there and its id in the profile. What an evaluator reports is one or more
/// `RequirementReport`s with reason codes whose text lives in the strings files.
protocol RequirementEvaluator: Sendable {
    /// The id a profile names it by.
    var id: RequirementID { get }
    /// The requirement's reports on the run; a report that is not met carries the reasons why.
    func evaluate(_ context: RequirementContext) -> [RequirementReport]
}
