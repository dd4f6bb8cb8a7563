/// The penalty score of a masked symbol (ISO/IEC 18004 7.8.3.1, table 11); the mask with the lowest score is used.
///
/// Read as segno 1.6.6 reads the standard, so that both choose the same mask: the symbol is scored before its
/// format and version information are drawn (those areas and the dark module are light); beyond the symbol's edge
/// counts as light for the 1:1:3:1:1 rule; a 1:1:3:1:1 pattern counted in a line is not also counted again where a
/// second one overlaps its last three modules; and the dark-proportion rule adds 10 for each full 5 % away from 50 %.
enum MaskPenalty {
    static func score(of grid: ModuleGrid) -> Int {
        let size = grid.size
        var total = 0
        var darkCount = 0
        var row = [Bool](repeating: false, count: size)
        var column = [Bool](repeating: false, count: size)
        for line in 0..<size {
            for index in 0..<size {
                row[index] = grid.isDark(x: index, y: line)
                column[index] = grid.isDark(x: line, y: index)
                if row[index] { darkCount += 1 }
            }
            total += sameColourRuns(row) + sameColourRuns(column)
            total += finderLikePatterns(row) + finderLikePatterns(column)
        }

        // Rule 2: each 2×2 block of one colour.
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = grid.isDark(x: x, y: y)
                if grid.isDark(x: x + 1, y: y) == colour, grid.isDark(x: x, y: y + 1) == colour,
                   grid.isDark(x: x + 1, y: y + 1) == colour {
                    total += 3
                }
            }
        }

        // Rule 4: k = how many whole 5 % steps the dark proportion is from 50 %, in exact integers.
        let modules = size * size
        total += 10 * (abs(darkCount * 100 - modules * 50) / (modules * 5))
        return total
    }

    /// Rule 1: 3 + i for each run of 5 + i modules of one colour.
    private static func sameColourRuns(_ line: [Bool]) -> Int {
        var score = 0
        var runLength = 0
        for index in line.indices {
            if index > 0, line[index] == line[index - 1] {
                runLength += 1
            } else {
                if runLength >= 5 { score += runLength - 2 }
                runLength = 1
            }
        }
        if runLength >= 5 { score += runLength - 2 }
        return score
    }

    private static let finderLike: [Bool] = [true, false, true, true, true, false, true]

    /// Rule 3: 40 for each dark:light:dark:light:dark 1:1:3:1:1 pattern with four light modules before or after it.
    private static func finderLikePatterns(_ line: [Bool]) -> Int {
        func isLight(_ range: Range<Int>) -> Bool {
            range.allSatisfy { !line.indices.contains($0) || !line[$0] }
        }
        var score = 0
        var start = 0
        while start + 7 <= line.count {
            guard (0..<7).allSatisfy({ line[start + $0] == finderLike[$0] }) else {
                start += 1
                continue
            }
            if isLight(start - 4..<start) || isLight(start + 7..<start + 11) {
                score += 40
                start += 7
            } else {
                start += 4
            }
        }
        return score
    }
}
