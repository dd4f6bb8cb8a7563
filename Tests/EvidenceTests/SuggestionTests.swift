import Evidence
import Testing

@Suite("Did you mean: the one rule for suggesting a known name")
struct SuggestionTests {
    static let scenarios = ["first-connect", "sign-out-switch", "offline-timeout", "purchase-restore-refund"]

    @Test("A near miss of a name or of one of its parts is suggested; serial ids, exact names and far misses are not", arguments: [
        ("refnd", scenarios, "purchase-restore-refund"),
        ("first-conect", scenarios, "first-connect"),
        ("offline", scenarios, "offline-timeout"),
        ("evidnce", ["evidence", "run", "report"], "evidence"),
        ("--jsn", ["--json", "--db", "--quiet"], "--json"),
        ("--jsno", ["--json", "--db", "--quiet"], "--json"),
        ("r9", ["r1", "r2"], nil),
        ("e12", ["e13"], nil),
        ("frobnicate", ["init", "campaign", "run", "evidence"], nil),
        ("first-connect", scenarios, nil),
        ("", scenarios, nil),
    ] as [(String, [String], String?)])
    func closestName(typed: String, known: [String], expected: String?) {
        #expect(Suggestion.closest(to: typed, among: known) == expected)
    }

    @Test("The sentence is ' Did you mean 'x'?' or nothing")
    func sentence() {
        #expect(Suggestion.sentence(for: "refnd", among: Self.scenarios) == " Did you mean 'purchase-restore-refund'?")
        #expect(Suggestion.sentence(for: "xyzzy", among: Self.scenarios) == "")
    }
}
