/// "Did you mean …?": the one rule for suggesting a known name in place of a mistyped one.
///
/// Used for commands, options, scenarios, check ids and recorded names alike. A name is close
/// when its edit distance to what was typed is small for its length, or when one of its parts
/// (split at `-` and `.`, e.g. `refund` in `purchase-restore-refund`) is. Serial ids that differ
/// only in their digits (`r9` and `r1`) are other records, not typos, and are never suggested.
package enum Suggestion {
    /// The known name closest to `typed`, or nil when none is close (or `typed` is itself known).
    package static func closest(to typed: String, among known: [String]) -> String? {
        guard !typed.isEmpty, !known.contains(typed) else { return nil }
        var best: (name: String, distance: Int)?
        for name in known where !differOnlyInDigits(typed, name) {
            let whole = distance(typed.lowercased(), name.lowercased())
            let part = parts(of: name).map { distance(typed.lowercased(), $0.lowercased()) }.min() ?? whole
            let d = min(whole, part)
            guard d <= allowance(for: typed) else { continue }
            if best == nil || d < best!.distance { best = (name, d) }
        }
        return best?.name
    }

    /// ` Did you mean 'x'?` (with its leading space), or the empty string when nothing is close.
    package static func sentence(for typed: String, among known: [String]) -> String {
        closest(to: typed, among: known).map { " Did you mean '\($0)'?" } ?? ""
    }

    /// How many edits a typo of this length may hold: one for short words, a third of longer ones.
    static func allowance(for typed: String) -> Int {
        max(1, min(3, typed.count / 3))
    }

    /// The name's parts and every run of neighbouring parts (`restore-refund`), without the whole.
    static func parts(of name: String) -> [String] {
        let pieces = name.split(whereSeparator: { $0 == "-" || $0 == "." }).map(String.init)
        guard pieces.count > 1 else { return [] }
        var runs: [String] = []
        for i in pieces.indices {
            for j in i..<pieces.count where !(i == 0 && j == pieces.count - 1) {
                runs.append(pieces[i...j].joined(separator: "-"))
            }
        }
        return runs
    }

    static func differOnlyInDigits(_ a: String, _ b: String) -> Bool {
        let letters = { (s: String) in s.filter { !$0.isNumber } }
        return a != b && a.contains(where: \.isNumber) && b.contains(where: \.isNumber) && letters(a) == letters(b)
    }

    /// The Levenshtein distance, counting a swap of two neighbouring characters as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a), t = Array(b)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
        for i in 0...s.count { d[i][0] = i }
        for j in 0...t.count { d[0][j] = j }
        for i in 1...s.count {
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[s.count][t.count]
    }
}
