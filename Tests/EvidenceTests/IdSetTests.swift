import Evidence
import Testing

/// The replay's id sets keep counter ids as bits; they must answer exactly as a set of strings would, for every id.
@Suite struct IdSetTests {
    static let ids = ["e1", "e2", "e64", "e63", "e65", "e1", "E1", "e01", "e", "1", "ee12", "e1x", "é1", "e1000000", "r1", "r1",
                      "e999999999999999", "e9999999999999999", "c-launch", "c-launch", "campaign 1", "", "e0", "e00", "x18446744073709551616",
                      "e4611686018427387904", "a\u{0}1", "Ab12"]

    @Test func answersAsASetOfStringsDoes() {
        var set = IdSet()
        var strings: Set<String> = []
        for id in Self.ids {
            #expect(set.contains(id) == strings.contains(id), "before inserting \(id)")
            let added = set.insert(id)
            #expect(added == strings.insert(id).inserted, "inserting \(id)")
            for other in Self.ids { #expect(set.contains(other) == strings.contains(other), "\(other) after \(id)") }
        }
    }

    @Test func twoHundredThousandCountedIdsAreAllFoundAndNoOthers() {
        var set = IdSet()
        var added = 0
        for n in stride(from: 1, through: 200_000, by: 2) where set.insert("e\(n)") { added += 1 }
        #expect(added == 100_000)
        var found = 0
        for n in 1...200_000 where set.contains("e\(n)") { found += 1; #expect(n % 2 == 1) }
        #expect(found == 100_000)
        let again = set.insert("e199999")
        #expect(!again)
        #expect(!set.contains("r1"))
    }

    /// A counter far past the others (an id written by hand) is kept apart from the prefix's array of words, which grows
    /// only a little at a time; once the array reaches it, it is folded in and still answers as a set of strings would.
    @Test func countersFarAheadAreKeptApartAndFoldedIn() {
        var set = IdSet()
        var strings: Set<String> = []
        let far = ["e300000", "e299999", "e999999999999999", "r262145", "e64"]
        for id in far { #expect(set.insert(id) == strings.insert(id).inserted) }
        for n in 1...300_001 {
            let id = "e\(n)"
            #expect(set.contains(id) == strings.contains(id), "before \(id)")
            #expect(set.insert(id) == strings.insert(id).inserted, "inserting \(id)")
        }
        for id in far + ["e300002", "r1", "e0", "e1000000"] { #expect(set.contains(id) == strings.contains(id), "\(id)") }
        let again = (set.insert("e300000"), set.insert("e999999999999999"))
        #expect(again == (false, false))
    }
}
