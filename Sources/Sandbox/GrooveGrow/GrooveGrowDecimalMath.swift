import GrowClient
import HTTPCore

/// Exact addition of contract decimals on their digit strings; never binary floating point.
enum GrooveGrowDecimalMath {
    /// `a + b`, written with as many fraction digits as the longer operand.
    static func add(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal {
        let x = Parts(a.text)
        let y = Parts(b.text)
        let scale = max(x.fraction.count, y.fraction.count)
        let mx = x.scaledDigits(scale)
        let my = y.scaledDigits(scale)
        var negative: Bool
        var magnitude: [UInt8]
        if x.negative == y.negative {
            negative = x.negative
            magnitude = addMagnitudes(mx, my)
        } else if compareMagnitudes(mx, my) >= 0 {
            negative = x.negative
            magnitude = subtractMagnitudes(mx, my)
        } else {
            negative = y.negative
            magnitude = subtractMagnitudes(my, mx)
        }
        while magnitude.count > scale + 1, magnitude.first == 0 { magnitude.removeFirst() }
        while magnitude.count < scale + 1 { magnitude.insert(0, at: 0) }
        if magnitude.allSatisfy({ $0 == 0 }) { negative = false }
        let digits = magnitude.map { Character(String($0)) }
        let integer = String(digits[0..<(digits.count - scale)])
        let fraction = String(digits[(digits.count - scale)...])
        let text = (negative ? "-" : "") + integer + (scale > 0 ? "." + fraction : "")
        return ExactDecimal(text) ?? a
    }

    private struct Parts {
        var negative: Bool
        var integer: [UInt8]
        var fraction: [UInt8]

        init(_ text: String) {
            var body = Substring(text)
            negative = body.first == "-"
            if negative { body = body.dropFirst() }
            let pieces = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            integer = pieces.first.map { $0.compactMap { $0.wholeNumberValue.map(UInt8.init) } } ?? [0]
            fraction = pieces.count > 1 ? pieces[1].compactMap { $0.wholeNumberValue.map(UInt8.init) } : []
        }

        func scaledDigits(_ scale: Int) -> [UInt8] {
            integer + fraction + [UInt8](repeating: 0, count: scale - fraction.count)
        }
    }

    private static func compareMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let width = max(a.count, b.count)
        let pa = [UInt8](repeating: 0, count: width - a.count) + a
        let pb = [UInt8](repeating: 0, count: width - b.count) + b
        for (da, db) in zip(pa, pb) where da != db { return da < db ? -1 : 1 }
        return 0
    }

    private static func addMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        var i = a.count - 1
        var j = b.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let sum = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `a - b` for `a >= b`.
    private static func subtractMagnitudes(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var borrow: Int = 0
        var j = b.count - 1
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            var digit = Int(a[i]) - borrow - (j >= 0 ? Int(b[j]) : 0)
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 10 }
            result.append(UInt8(digit))
            j -= 1
        }
        return result.reversed()
    }
}
